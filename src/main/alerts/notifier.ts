/**
 * Where alerts leave the core. AppCore is the one notifier path: it pushes every alert to the
 * renderer (`alertRaised`, shown as a toast) and hands it to the shell's OS notifier when the
 * shell has one (Electron); without one (browser mode) the push asks the tab to raise a Web
 * Notification instead. Tests record them.
 */
import type { AlertKind } from '../../shared/container';

export interface AlertNotification {
  /** The stored alert's id (the alerts centre opens it). */
  alertId: number;
  kind: AlertKind;
  title: string;
  body: string;
  /** The container the notification opens; null for shipment-wide alerts without containers. */
  containerId: string | null;
  /**
   * The find link of that container (`quayside://find?q=<number>`), to pass on to whoever
   * should look at it; null without a container.
   */
  link: string | null;
}

export interface Notifier {
  notify(notification: AlertNotification): void;
}
