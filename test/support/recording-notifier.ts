import type { AlertNotification, Notifier } from '../../src/main/alerts/notifier';

/** Keeps every notification in memory, in order (the OS notification centre is faked here). */
export class RecordingNotifier implements Notifier {
  readonly notifications: AlertNotification[] = [];

  notify(notification: AlertNotification): void {
    this.notifications.push(notification);
  }
}
