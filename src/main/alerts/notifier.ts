/**
 * Where alerts leave the core: the Electron shell shows OS notifications, browser mode pushes to
 * the tab; tests record them.
 */
import type { AlertKind } from '../../shared/container';

export interface Notification {
  /** The stored alert's id (the alerts centre opens it). */
  alertId: number;
  kind: AlertKind;
  title: string;
  body: string;
  /** The container the notification opens; null for shipment-wide alerts without containers. */
  containerId: string | null;
}

export interface Notifier {
  notify(notification: Notification): void;
}

/** Keeps every notification in memory, in order. */
export class RecordingNotifier implements Notifier {
  readonly notifications: Notification[] = [];

  notify(notification: Notification): void {
    this.notifications.push(notification);
  }
}
