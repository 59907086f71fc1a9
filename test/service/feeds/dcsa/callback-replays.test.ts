/**
 * A carrier retries a callback it thinks was lost, and with several instances behind a load
 * balancer the retry (or even the first delivery, sent twice at once) reaches another instance.
 * Each signed body is applied once: the accepted bodies are recorded in the store, so a second
 * instance on the same PostgreSQL database, or this instance after a restart, acknowledges the
 * replay without applying it. Runs on both stores (vitest.config.ts POSTGRES_SUITE).
 */
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CallbackVerifier,
  dcsaCallbackPlugin,
  storedReplayRecord,
  type CallbackVerdict,
} from '../../../../src/service/feeds/dcsa/callback';
import type { DcsaEvent } from '../../../../src/shared/feeds/dcsa';
import { CallbackReceipts } from '../../../../src/service/store/callback-receipts';
import { openDatabase, type OpenedDatabase } from '../../../../src/service/store/db';
import type { PostgresOptions } from '../../../../src/service/store/dialect';
import { ManualClock } from '../../../../src/shared/clock';
import { testDatabase, testStoreKind } from '../../../support/store-kinds';
import { journeyEvents } from './fixtures';

const SECRET = Buffer.alloc(32, 3).toString('base64');
const SUBSCRIPTION = '6b1f6a52-0d7e-4c8f-9a51-2f0e8a8f3c11';
const sign = (body: string) =>
  `sha256=${createHmac('sha256', Buffer.from(SECRET, 'base64')).update(body).digest('hex')}`;

interface Instance {
  url: string;
  applied: DcsaEvent[][];
  verdicts: CallbackVerdict['kind'][];
  /** Makes the next deliveries fail to apply (the store went away mid-request, say). */
  failApplying: boolean;
  close(): Promise<void>;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data folder and, on PostgreSQL, a database: what several instances (or restarts) share. */
async function sharedStore(): Promise<{ dataDir: string; postgres?: PostgresOptions }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-replays-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  return { dataDir, postgres: await testDatabase() };
}

/** The callback route as the service mounts it, over `opened`'s store. */
async function startInstance(opened: OpenedDatabase, clock: ManualClock): Promise<Instance> {
  const app: FastifyInstance = Fastify();
  const instance: Instance = {
    url: '',
    applied: [],
    verdicts: [],
    failApplying: false,
    close: () => app.close(),
  };
  await app.register(dcsaCallbackPlugin, {
    prefix: '/feeds/dcsa/callbacks',
    verifier: new CallbackVerifier(
      (id) => (id === SUBSCRIPTION ? { scac: 'MSCU', secret: SECRET } : null),
      storedReplayRecord(new CallbackReceipts(opened.db), () => clock.now()),
    ),
    sink: async ({ events }) => {
      if (instance.failApplying) throw new Error('could not apply');
      instance.applied.push(events);
    },
    onVerdict: (verdict) => instance.verdicts.push(verdict.kind),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as { port: number };
  instance.url = `http://127.0.0.1:${port}/feeds/dcsa/callbacks/${SUBSCRIPTION}`;
  return instance;
}

async function send(instance: Instance, body: string): Promise<number> {
  const response = await fetch(instance.url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Notification-Signature': sign(body) },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

/** Distinct signed bodies (the bytes differ, so do their signatures), valid DCSA events. */
const bodies = (count: number) =>
  Array.from(
    { length: count },
    (_, i) => ' '.repeat(i) + JSON.stringify(journeyEvents().slice(0, 1 + (i % 3))),
  );

const count = (kinds: string[], kind: string) => kinds.filter((k) => k === kind).length;

describe(`DCSA callback replays (${testStoreKind()})`, () => {
  it('a body sent to two instances at the same moment is accepted by one and replayed by the other', async () => {
    const store = await sharedStore();
    // Two instances: on PostgreSQL each with its own pool, as separate processes would have;
    // on SQLite the one process that owns the file serves both listeners.
    const first = await openDatabase(store.dataDir, { postgres: store.postgres });
    const second = store.postgres
      ? await openDatabase(store.dataDir, { postgres: store.postgres })
      : first;
    cleanups.push(() => first.close());
    if (second !== first) cleanups.push(() => second.close());
    const clock = new ManualClock(Date.UTC(2026, 4, 1));
    const a = await startInstance(first, clock);
    const b = await startInstance(second, clock);
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );

    const sent = bodies(20);
    const statuses = await Promise.all(sent.flatMap((body) => [send(a, body), send(b, body)]));
    expect(statuses.every((s) => s === 204)).toBe(true);

    const verdicts = [...a.verdicts, ...b.verdicts];
    expect(count(verdicts, 'accepted')).toBe(sent.length);
    expect(count(verdicts, 'replayed')).toBe(sent.length);
    expect(a.applied.length + b.applied.length).toBe(sent.length);

    // A later retry, to either instance, is a replay too.
    expect(await send(b, sent[0]!)).toBe(204);
    expect(await send(a, sent[0]!)).toBe(204);
    expect(a.applied.length + b.applied.length).toBe(sent.length);
  });

  it('an instance restarted on the same store still refuses a replay', async () => {
    const store = await sharedStore();
    const clock = new ManualClock(Date.UTC(2026, 4, 1));
    const body = bodies(1)[0]!;

    const opened = await openDatabase(store.dataDir, { postgres: store.postgres });
    const before = await startInstance(opened, clock);
    expect(await send(before, body)).toBe(204);
    expect(before.applied).toHaveLength(1);
    await before.close();
    await opened.close();

    const reopened = await openDatabase(store.dataDir, { postgres: store.postgres });
    cleanups.push(() => reopened.close());
    const after = await startInstance(reopened, clock);
    cleanups.push(() => after.close());
    expect(await send(after, body)).toBe(204);
    expect(after.verdicts).toEqual(['replayed']);
    expect(after.applied).toEqual([]);
  });

  it('a body that could not be applied is applied when the carrier retries it', async () => {
    const store = await sharedStore();
    const opened = await openDatabase(store.dataDir, { postgres: store.postgres });
    cleanups.push(() => opened.close());
    const instance = await startInstance(opened, new ManualClock(Date.UTC(2026, 4, 1)));
    cleanups.push(() => instance.close());
    const body = bodies(1)[0]!;

    instance.failApplying = true;
    expect(await send(instance, body)).toBe(500);
    instance.failApplying = false;
    expect(await send(instance, body)).toBe(204);
    expect(instance.applied).toHaveLength(1);
    expect(instance.verdicts).toEqual(['accepted', 'accepted']);
  });

  it('forgets receipts after the retention and keeps a bounded number', async () => {
    const store = await sharedStore();
    const opened = await openDatabase(store.dataDir, { postgres: store.postgres });
    cleanups.push(() => opened.close());
    const receipts = new CallbackReceipts(opened.db);
    const clock = new ManualClock(Date.UTC(2026, 4, 1));
    const record = storedReplayRecord(receipts, () => clock.now(), {
      retentionMs: 86_400_000,
      maxReceipts: 5,
    });

    expect(await record.recordFirst(SUBSCRIPTION, 'a'.repeat(64))).toBe(true);
    expect(await record.recordFirst(SUBSCRIPTION, 'a'.repeat(64))).toBe(false);
    for (let i = 0; i < 8; i++) {
      clock.advance(61_000);
      expect(await record.recordFirst(SUBSCRIPTION, String(i).repeat(64))).toBe(true);
    }
    // Pruned with each receipt a minute apart: the newest five are left, the oldest went.
    expect(await receipts.count()).toBe(5);
    expect(await record.recordFirst(SUBSCRIPTION, '7'.repeat(64))).toBe(false);

    clock.advance(2 * 86_400_000);
    expect(await record.recordFirst(SUBSCRIPTION, 'b'.repeat(64))).toBe(true);
    expect(await receipts.count()).toBe(1);
    // Past the retention a body is no longer remembered (events apply idempotently anyway).
    expect(await record.recordFirst(SUBSCRIPTION, '7'.repeat(64))).toBe(true);
  });
});
