/**
 * A walk's page read on the page thread gives what reading it on the main thread gives: the same
 * envelope, findings and rows, slice by slice. Unreadable JSON is a SyntaxError (the client asks
 * again), and JSON that is no /v2 list is told apart from it. A page left unread (a walk that
 * stopped) does not keep the process alive.
 */
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readWalkPage, stepsOnThread } from '../../../src/main/sync/page-thread';
import { walkPath } from '../../../src/main/sync/records';
import { stepsHere, walkPageFrom, type WalkPage } from '../../../src/main/sync/walk-page';
import { runModuleScript } from '../../support/module-script';
import { smallServiceForFile } from '../../support/sync-harness';

const harness = smallServiceForFile();

async function pageText(kind: 'shipments' | 'containers'): Promise<string> {
  const { baseUrl, apiKey } = harness();
  const path = walkPath(kind, { pageSize: 100, cursor: null, customFields: true });
  const response = await fetch(`${baseUrl}/${path}`, {
    headers: { Authorization: `Token ${apiKey}` },
  });
  expect(response.status).toBe(200);
  return response.text();
}

/** Every step of a page as plain values (the records kept beside rows on this thread left out). */
async function stepsOf(page: WalkPage): Promise<unknown[]> {
  const { rest, ...envelope } = page;
  const steps: unknown[] = [envelope];
  for await (const step of rest) {
    if (step.type === 'findings') steps.push(step);
    else {
      steps.push({
        ...step.page,
        shipments: step.page.shipments.map(({ row }) => ({ row })),
        containers: step.page.containers.map(({ row, history }) => ({ row, history })),
      });
    }
  }
  return steps;
}

describe('the page thread', () => {
  for (const kind of ['containers', 'shipments'] as const) {
    it(`reads a ${kind} page as the main thread does`, async () => {
      const text = await pageText(kind);
      // Read on the thread itself (readWalkPage would fall back to this thread without one).
      const onThread = stepsOnThread(kind, text);
      expect(onThread).not.toBeNull();
      const threaded = await stepsOf((await walkPageFrom(onThread!))!);
      expect(threaded).toEqual(await stepsOf((await walkPageFrom(stepsHere(kind, text)))!));
      // The envelope, the findings, and at least one slice with rows.
      const rows = threaded.slice(2) as { containers: unknown[]; shipments: unknown[] }[];
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.some((s) => s.containers.length + s.shipments.length > 0)).toBe(true);
    });
  }

  it('reports a malformed record by its id and keeps its id listed', async () => {
    const body = JSON.parse(await pageText('containers')) as { data: { id: string }[] };
    const bad = { ...body.data[0]!, attributes: 'not an object' };
    body.data[0] = bad as unknown as { id: string };
    const page = await readWalkPage('containers', JSON.stringify(body));
    expect(page!.ids).toContain(bad.id);
    const [findings] = (await stepsOf(page!)).slice(1) as {
      skipped: { id: string | null; type: string }[];
    }[];
    expect(findings!.skipped).toContainEqual(expect.objectContaining({ id: bad.id }));
  });

  it('throws a SyntaxError for unreadable JSON and gives null for JSON that is no list', async () => {
    const text = await pageText('containers');
    await expect(readWalkPage('containers', text.slice(0, text.length >> 1))).rejects.toThrow(
      SyntaxError,
    );
    expect(await readWalkPage('containers', '{"errors":[]}')).toBeNull();
  });

  it('lets the process end when a walk stops before reading its pages to the end', async () => {
    const module = fileURLToPath(new URL('../../../src/main/sync/page-thread.ts', import.meta.url));
    // One page read to its envelope only, as a walk's prefetched page is when the walk fails;
    // one given up after its first step.
    const script = `
      import { readWalkPage } from ${JSON.stringify(module)};
      const text = JSON.stringify({
        data: [{ id: 'c1', type: 'container', attributes: { number: 'MSCU1234565' } }],
        included: [],
        meta: { total: 1 },
      });
      const unread = await readWalkPage('containers', text);
      const started = await readWalkPage('containers', text);
      const steps = started.rest[Symbol.asyncIterator]();
      await steps.next();
      await steps.return();
      console.log('read', unread.ids.length + started.ids.length);`;
    const { code, stdout } = await runModuleScript(script);
    expect(stdout.trim()).toBe('read 2');
    expect(code).toBe(0);
  });
});
