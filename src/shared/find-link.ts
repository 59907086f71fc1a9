/**
 * Find links: `quayside://find?q=<identifier>` opens the app on the container or shipment an
 * identifier names (container number, B/L, booking or a reference). One home for the link's
 * form and for how an identifier is compared (spaces and dashes dropped, upper case).
 */
export const FIND_PROTOCOL = 'quayside';

/** The most an identifier may be, in characters. */
export const MAX_IDENTIFIER_LENGTH = 100;

/** The link that opens the app on `identifier`. */
export const findLink = (identifier: string): string =>
  `${FIND_PROTOCOL}://find?q=${encodeURIComponent(identifier.trim())}`;

/** An identifier as compared: `MSCU 123456-5` and `mscu1234565` are the same. */
export const normaliseIdentifier = (text: string): string =>
  text.replace(/[\s\-–]+/g, '').toUpperCase();

/**
 * The identifier of a find link (`quayside://find?q=…`, or a browser mode `/find?q=…` URL), or
 * null when the text is not one or names nothing usable.
 */
export function identifierOfLink(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link, 'http://localhost');
  } catch {
    return null;
  }
  const isFind =
    url.protocol === `${FIND_PROTOCOL}:`
      ? url.hostname === 'find' || url.pathname.replace(/^\/+/, '') === 'find'
      : url.pathname === '/find';
  if (!isFind) return null;
  const q = url.searchParams.get('q')?.trim() ?? '';
  return q.length > 0 && q.length <= MAX_IDENTIFIER_LENGTH ? q : null;
}
