/**
 * The app as the handler of `quayside://` links. macOS hands a link to the running app
 * (`open-url`); Windows and Linux start a second instance with the link among its arguments,
 * which the single-instance lock turns into `second-instance` here.
 */
import { app } from 'electron';
import { FIND_PROTOCOL } from '../../shared/find-link';
import { findRouteOfArgs, findRouteOfLink } from '../desktop/find-link-target';

/**
 * Registers the protocol and calls `open` with the renderer route of every link that arrives.
 * Call before the app is ready (macOS sends a launching link early); `windowReady` opens a link
 * that arrived before the window (or launched the app) once it exists.
 */
export function handleFindLinks(open: (route: string) => void): { windowReady(): void } {
  // Only an installed app claims the scheme: a run from a checkout (tests among them) never
  // rewrites the OS's handler for it. The installers declare it too (electron-builder.yml).
  // Reviewed: a link only ever becomes a renderer route through findRouteOfLink, which accepts a
  // container or shipment reference and nothing else (test/main/desktop/find-link-target.test.ts).
  if (app.isPackaged)
    app.setAsDefaultProtocolClient(FIND_PROTOCOL); /* eng-disable PROTOCOL_HANDLER_JS_CHECK */
  let pending: string | null = findRouteOfArgs(process.argv);
  let ready = false;
  const deliver = (route: string | null) => {
    if (!route) return;
    if (ready) open(route);
    else pending = route;
  };
  app.on('open-url', (event, url) => {
    event.preventDefault();
    deliver(findRouteOfLink(url));
  });
  app.on('second-instance', (_event, argv) => deliver(findRouteOfArgs(argv)));
  return {
    windowReady() {
      ready = true;
      if (pending) open(pending);
      pending = null;
    },
  };
}
