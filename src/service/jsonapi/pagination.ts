/** `page[number]` / `page[size]` parsing and the first/last/next/prev/self links. */
import { ApiError } from './errors';

export const DEFAULT_PAGE_SIZE = 30;
export const MAX_PAGE_SIZE = 100;
/**
 * Highest page number accepted: far beyond any real collection, and small enough that the row
 * offset `(number - 1) * size` stays an exact integer well inside SQLite's 64-bit range.
 */
export const MAX_PAGE_NUMBER = 1_000_000;

export interface Page {
  number: number;
  size: number;
  offset: number;
}

function positiveInt(raw: unknown, parameter: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const n = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1) {
    throw new ApiError(400, `${parameter} must be a positive integer`, { source: { parameter } });
  }
  return n;
}

/** Page size above the maximum is truncated to it rather than refused. */
export function parsePage(query: Record<string, unknown>): Page {
  const number = positiveInt(query['page[number]'], 'page[number]') ?? 1;
  if (number > MAX_PAGE_NUMBER) {
    throw new ApiError(400, `page[number] must be at most ${MAX_PAGE_NUMBER}`, {
      source: { parameter: 'page[number]' },
    });
  }
  const size = Math.min(
    positiveInt(query['page[size]'], 'page[size]') ?? DEFAULT_PAGE_SIZE,
    MAX_PAGE_SIZE,
  );
  return { number, size, offset: (number - 1) * size };
}

/** Rebuilds the request URL with a different page number; other parameters are kept. */
function pageUrl(
  base: string,
  query: Record<string, unknown>,
  page: number | null,
  size: number | null,
): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (k === 'page[number]' || k === 'page[size]' || v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v])
      parts.push(`${k}=${encodeURIComponent(String(item))}`);
  }
  if (page !== null) parts.push(`page[number]=${page}`);
  if (size !== null) parts.push(`page[size]=${size}`);
  return parts.length ? `${base}?${parts.join('&')}` : base;
}

export interface CollectionLinks {
  self: string;
  first: string;
  last: string;
  next?: string;
  prev?: string;
  current?: string;
}

export function collectionLinks(
  base: string,
  query: Record<string, unknown>,
  page: Page,
  total: number,
  options: { selfWithoutPage?: boolean } = {},
): CollectionLinks {
  const lastPage = Math.max(1, Math.ceil(total / page.size));
  const explicitSize = query['page[size]'] !== undefined ? page.size : null;
  const link = (n: number) => pageUrl(base, query, n, explicitSize);
  const links: CollectionLinks = {
    self: options.selfWithoutPage ? pageUrl(base, query, null, null) : link(page.number),
    first: link(1),
    last: link(lastPage),
  };
  if (page.number < lastPage) links.next = link(page.number + 1);
  if (page.number > 1) links.prev = link(Math.min(page.number - 1, lastPage));
  if (options.selfWithoutPage) links.current = link(page.number);
  return links;
}
