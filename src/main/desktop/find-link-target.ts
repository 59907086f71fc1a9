import { FIND_PROTOCOL, identifierOfLink } from '../../shared/find-link';

/**
 * The renderer route (`/find/<identifier>`, see src/renderer/lib/navigation.ts) for a
 * `quayside://find?q=…` link, or null for anything else: the identifier is encoded, so a link
 * can never change the route's shape.
 */
export function findRouteOfLink(link: string): string | null {
  if (!link.toLowerCase().startsWith(`${FIND_PROTOCOL}:`)) return null;
  const identifier = identifierOfLink(link);
  return identifier ? `/find/${encodeURIComponent(identifier)}` : null;
}

/** The route of the first find link among a launch's arguments (Windows and Linux pass it so). */
export function findRouteOfArgs(argv: readonly string[]): string | null {
  for (const arg of argv) {
    const route = findRouteOfLink(arg);
    if (route) return route;
  }
  return null;
}
