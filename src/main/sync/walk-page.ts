/**
 * A page of the shipments or containers walk, from the service's text to rows ready to write: the
 * envelope (next link, total, the ids listed), then what checking found (skipped records, the
 * custom field definitions named, each record's `updated_at`), then the write slices with their
 * rows projected (cache/prepared-page.ts). The steps are one pure generator, run either on the
 * page thread (page-thread.ts), so the main thread only writes, or on the main thread a slice
 * per turn where no thread can be started.
 */
import { preparePage, type PreparedPage } from '../cache/prepared-page';
import { nextTurn } from '../turns';
import { checkPage } from './check-page';
import { parseJsonSliced } from './sliced-json';
import { collectionEnvelope, type SkippedRecord } from './validate';

export type WalkKind = 'shipments' | 'containers';

export interface WalkEnvelope {
  type: 'envelope';
  next: string | null;
  total: number | null;
  /** How many records `data` held, malformed ones included. */
  count: number;
  /** The ids of `data`'s records (a malformed record is skipped, its cached copy kept). */
  ids: string[];
}

export interface WalkFindings {
  type: 'findings';
  skipped: SkippedRecord[];
  /** Custom field definitions the page's values name. */
  definitionIds: string[];
  /** Each listed record's `updated_at` in ms (NaN when it has none). */
  updated: number[];
}

export interface WalkSlice {
  type: 'slice';
  page: PreparedPage;
}

/** What the steps produce; `not-list` when the body is JSON but no /v2 collection. */
export type WalkStep = WalkEnvelope | WalkFindings | WalkSlice | { type: 'not-list' };

/**
 * The steps of one page; `undefined` between slices of work (a turn of the event loop on the
 * main thread). `withRecords`: keep the records beside their rows (not across a thread).
 */
export function* walkPageSteps(
  kind: WalkKind,
  body: unknown,
  withRecords: boolean,
): Generator<WalkStep | undefined, void> {
  const envelope = collectionEnvelope(body);
  if (!envelope) {
    yield { type: 'not-list' };
    return;
  }
  const ids: string[] = [];
  for (const raw of envelope.data) {
    const id = (raw as { id?: unknown })?.id;
    if (typeof id === 'string') ids.push(id);
  }
  yield {
    type: 'envelope',
    next: envelope.next,
    total: envelope.total,
    count: envelope.data.length,
    ids,
  };
  const sink = { pending: [] as SkippedRecord[], definitionIdsSeen: new Set<string>() };
  const { primary, slices } = yield* checkPage(kind, envelope, sink);
  const listed = new Set(ids);
  const records = kind === 'shipments' ? primary.shipments : (primary.containers ?? []);
  const updated: number[] = [];
  for (const r of records) {
    // A shipments page includes other shipments only through containers; only listed ones count.
    if (kind === 'shipments' && !listed.has(r.id)) continue;
    updated.push(r.attributes.updated_at ? Date.parse(r.attributes.updated_at) : NaN);
  }
  yield {
    type: 'findings',
    skipped: sink.pending,
    definitionIds: [...sink.definitionIdsSeen],
    updated,
  };
  for (const slice of slices) {
    yield;
    yield { type: 'slice', page: preparePage(slice, { withRecords }) };
  }
}

/** A page read up to its envelope; `rest` gives its findings and then its slices. */
export interface WalkPage extends Omit<WalkEnvelope, 'type'> {
  rest: AsyncIterable<WalkFindings | WalkSlice>;
}

/**
 * The page from a source of its steps; null when the body is no /v2 collection. A source that
 * fails on unreadable JSON throws a SyntaxError here, before anything was written.
 */
export async function walkPageFrom(steps: AsyncIterator<WalkStep>): Promise<WalkPage | null> {
  const first = await steps.next();
  if (first.done || first.value.type === 'not-list') return null;
  if (first.value.type !== 'envelope') throw new Error('a page began without its envelope');
  const { type: _envelope, ...envelope } = first.value;
  return {
    ...envelope,
    rest: {
      [Symbol.asyncIterator]: () => ({
        next: async () => {
          const step = await steps.next();
          if (step.done) return { done: true, value: undefined };
          if (step.value.type !== 'findings' && step.value.type !== 'slice') {
            throw new Error(`unexpected step "${step.value.type}" in a page`);
          }
          return { done: false, value: step.value };
        },
        // A walk that stops early lets the source go (the thread's reader, its place in the queue).
        return: async () => {
          await steps.return?.();
          return { done: true, value: undefined };
        },
      }),
    },
  };
}

/** The steps on the main thread: parsed in slices, then checked and projected a slice a turn. */
export async function* stepsHere(kind: WalkKind, text: string): AsyncGenerator<WalkStep> {
  const body = await parseJsonSliced(text);
  for (const step of walkPageSteps(kind, body, true)) {
    if (step) yield step;
    else await nextTurn();
  }
}
