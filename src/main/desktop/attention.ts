/**
 * What the tray/menu-bar icon and the dock/taskbar badge show: the unread alert count, the number
 * of containers that need action today, and "Sync now". Plain data in, a plain model out; the
 * Electron shell draws it.
 */
export interface Attention {
  unreadAlerts: number;
  /** Containers in the board's "Needs action today" view. */
  actionToday: number;
  syncing: boolean;
  /** An update is downloaded and waits for a restart. */
  updateReady: boolean;
}

export type TrayCommand = 'open' | 'syncNow' | 'openAlerts' | 'restartToUpdate' | 'quit';

export interface TrayMenuItem {
  command: TrayCommand;
  label: string;
  enabled: boolean;
}

export interface TrayModel {
  tooltip: string;
  /** Text beside the macOS menu-bar icon: the unread count, empty when there is none. */
  title: string;
  items: TrayMenuItem[];
}

/** Counts above this show as "99+" (badges have room for three characters). */
const BADGE_MAX = 99;

export function countLabel(count: number): string {
  if (count <= 0) return '';
  return count > BADGE_MAX ? `${BADGE_MAX}+` : String(count);
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function trayModel(attention: Attention): TrayModel {
  const unread = plural(attention.unreadAlerts, 'unread alert', 'unread alerts');
  const action = plural(attention.actionToday, 'container needs', 'containers need');
  const items: TrayMenuItem[] = [
    { command: 'open', label: 'Open Quayside', enabled: true },
    {
      command: 'openAlerts',
      label:
        attention.unreadAlerts > 0 ? `Alerts (${countLabel(attention.unreadAlerts)})` : 'Alerts',
      enabled: true,
    },
    {
      command: 'syncNow',
      label: attention.syncing ? 'Syncing…' : 'Sync now',
      enabled: !attention.syncing,
    },
  ];
  if (attention.updateReady) {
    items.push({ command: 'restartToUpdate', label: 'Update ready, restart', enabled: true });
  }
  items.push({ command: 'quit', label: 'Quit Quayside', enabled: true });
  return {
    tooltip: `Quayside: ${unread}, ${action} action today${attention.syncing ? ' (syncing)' : ''}`,
    title: countLabel(attention.unreadAlerts),
    items,
  };
}

/** Labels of the Windows taskbar overlay icons (build/badges/): one digit, or "9+". */
export type OverlayLabel = '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '9+';

/** The dock (macOS) / launcher (Linux) badge count, and the Windows taskbar overlay. */
export function badgeModel(attention: Attention): {
  count: number;
  overlayLabel: OverlayLabel | null;
  overlayDescription: string;
} {
  const count = Math.max(0, attention.actionToday);
  return {
    count,
    overlayLabel: count === 0 ? null : count > 9 ? '9+' : (String(count) as OverlayLabel),
    overlayDescription:
      count === 0 ? '' : plural(count, 'container needs', 'containers need') + ' action today',
  };
}

/**
 * Recomputes the attention counts when the app says something changed, and hands the shell a
 * new model only when it differs from the one it shows (tray menus flicker when rebuilt).
 */
export class AttentionTracker {
  private shown: string | null = null;

  constructor(
    private readonly read: () => Attention,
    private readonly show: (tray: TrayModel, badge: ReturnType<typeof badgeModel>) => void,
  ) {}

  refresh(): void {
    let attention: Attention;
    try {
      attention = this.read();
    } catch {
      // The cache is closing or busy: the next change refreshes again.
      return;
    }
    const key = JSON.stringify(attention);
    if (key === this.shown) return;
    this.shown = key;
    this.show(trayModel(attention), badgeModel(attention));
  }
}
