import { describe, expect, it } from 'vitest';
import {
  AttentionTracker,
  badgeModel,
  countLabel,
  trayModel,
  type Attention,
} from '../../../src/main/desktop/attention';

const calm: Attention = { unreadAlerts: 0, actionToday: 0, syncing: false, updateReady: false };

describe('tray and badge', () => {
  it('shows the unread alert count beside the menu-bar icon and in the tooltip', () => {
    const tray = trayModel({ ...calm, unreadAlerts: 3, actionToday: 1 });
    expect(tray.title).toBe('3');
    expect(tray.tooltip).toBe('Quayside: 3 unread alerts, 1 container needs action today');
    expect(tray.items.find((item) => item.command === 'openAlerts')?.label).toBe('Alerts (3)');
  });

  it('offers "Sync now", disabled while a sync runs', () => {
    const idle = trayModel(calm).items.find((item) => item.command === 'syncNow');
    expect(idle).toEqual({ command: 'syncNow', label: 'Sync now', enabled: true });
    const busy = trayModel({ ...calm, syncing: true }).items.find((i) => i.command === 'syncNow');
    expect(busy).toEqual({ command: 'syncNow', label: 'Syncing…', enabled: false });
  });

  it('offers "Update ready, restart" only once an update is downloaded', () => {
    expect(trayModel(calm).items.map((item) => item.command)).not.toContain('restartToUpdate');
    expect(trayModel({ ...calm, updateReady: true }).items.map((i) => i.label)).toContain(
      'Update ready, restart',
    );
  });

  it('badges the count of containers needing action today, empty at zero, 99+ above 99', () => {
    expect(badgeModel({ ...calm, actionToday: 0 })).toEqual({
      count: 0,
      overlayLabel: null,
      overlayDescription: '',
    });
    expect(badgeModel({ ...calm, unreadAlerts: 9, actionToday: 4 })).toMatchObject({
      count: 4,
      overlayLabel: '4',
      overlayDescription: '4 containers need action today',
    });
    expect(badgeModel({ ...calm, actionToday: 12 }).overlayLabel).toBe('9+');
    expect(countLabel(250)).toBe('99+');
    expect(trayModel({ ...calm, unreadAlerts: 0 }).title).toBe('');
  });
});

describe('AttentionTracker', () => {
  it('redraws only when the counts change, and survives a failing read', () => {
    let attention: Attention = { ...calm, unreadAlerts: 1 };
    let failing = false;
    const shown: string[] = [];
    const tracker = new AttentionTracker(
      () => {
        if (failing) throw new Error('cache closed');
        return attention;
      },
      (tray, badge) => shown.push(`${tray.title}/${badge.count}`),
    );
    tracker.refresh();
    tracker.refresh();
    attention = { ...attention, actionToday: 2 };
    tracker.refresh();
    failing = true;
    tracker.refresh();
    expect(shown).toEqual(['1/0', '1/2']);
  });
});
