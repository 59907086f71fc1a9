import { opensWorklist, type AlertKind } from '../../shared/container';

/**
 * Where clicking an OS notification takes the dispatcher: the worklist for the daily digest, the
 * container the alert is about, or the alerts list for alerts without one. Returns the renderer's hash route (see
 * src/renderer/lib/navigation.ts), validated so an id can never change the route's shape.
 */
const CONTAINER_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function notificationRoute(
  containerId: string | null | undefined,
  kind?: AlertKind,
): string {
  if (opensWorklist(kind)) return '/worklist';
  if (typeof containerId === 'string' && CONTAINER_ID.test(containerId)) {
    return `/containers/${encodeURIComponent(containerId)}`;
  }
  return '/alerts';
}
