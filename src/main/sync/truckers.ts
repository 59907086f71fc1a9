/**
 * The truckers step of a sync run: the account's parties with the trucker role (a Quayside
 * extension), so the board names each box's trucker and the assign menus work offline. The
 * cached list is replaced only by a complete one; a service without parties or roles keeps
 * whatever was cached.
 */
import type { TruckerRecord } from '../../shared/desktop';
import type { CacheStore } from '../cache/interface';
import { V2Error, type V2Client } from './client';

/** Far more truckers than an account works with; bounds a run against a runaway list. */
const MAX_TRUCKERS = 2_000;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.trim() && v.length <= max ? v.trim() : null;

/** A party record as a trucker, or null when it is not usable (no id, no name, no role). */
export function truckerOf(record: unknown): TruckerRecord | null {
  if (!isObject(record) || record.type !== 'party' || !isObject(record.attributes)) return null;
  const id = text(record.id, 64);
  const a = record.attributes;
  const name = text(a.company_name, 200);
  // A service that ignores the filter lists every party: only those with the role are kept.
  if (!id || !name || !Array.isArray(a.roles) || !a.roles.includes('trucker')) return null;
  const contacts = (Array.isArray(a.contacts) ? a.contacts : []).flatMap((c) => {
    if (!isObject(c)) return [];
    const entry = { name: text(c.name, 200), email: text(c.email, 254), phone: text(c.phone, 50) };
    return entry.name || entry.email || entry.phone ? [entry] : [];
  });
  return { id, companyName: name, scac: text(a.scac, 4), contacts: contacts.slice(0, 10) };
}

/** Reads every trucker and replaces the cached list; returns how many were stored (null: none). */
export async function syncTruckers(client: V2Client, cache: CacheStore): Promise<number | null> {
  const truckers: TruckerRecord[] = [];
  try {
    for await (const page of client.pages('parties?filter[role]=trucker&page[size]=100')) {
      for (const record of page.data) {
        const trucker = truckerOf(record);
        if (trucker) truckers.push(trucker);
      }
      if (truckers.length > MAX_TRUCKERS) return null;
    }
  } catch (error) {
    // A service without parties (or without the filter) has no truckers to show.
    if (
      error instanceof V2Error &&
      (error.kind === 'not_found' ||
        error.kind === 'forbidden' ||
        (error.kind === 'http' && error.status === 400))
    ) {
      return null;
    }
    throw error;
  }
  cache.replaceTruckers(truckers);
  return truckers.length;
}
