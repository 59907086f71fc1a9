/** Hash routes: `#/containers`, `#/containers/<id>`, `#/shipments/<id>`, ... */
export interface Route {
  view: string;
  id: string | null;
}

export function parseRoute(hash: string): Route {
  const [view = '', id] = hash.replace(/^#\/?/, '').split('/');
  return { view, id: id ? decodeURIComponent(id) : null };
}

export function navigate(view: string, id?: string | null): void {
  window.location.hash = id ? `#/${view}/${encodeURIComponent(id)}` : `#/${view}`;
}
