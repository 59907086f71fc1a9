/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
/**
 * The per-account part of the document budget: documents are read a few at a time for the
 * service and one at a time per account, taking accounts in turns, so one account's pile of
 * hostile files never holds up another account's document.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../support/service';
import { arrivalNotice, manyStreamBomb } from '../../support/documents/generated-pdfs';

let t: TestService;
beforeAll(async () => {
  t = await startTestService({
    documentBudget: { concurrentJobs: 2, concurrentJobsPerAccount: 1 },
  });
});
afterAll(async () => {
  await t?.close();
});

async function upload(bytes: Uint8Array, fileName: string, key: string): Promise<string> {
  const form = new FormData();
  form.append('file', new Blob([bytes]), fileName);
  const res = await fetch(`${t.baseUrl}/documents`, {
    method: 'POST',
    headers: { Authorization: `Token ${key}` },
    body: form,
  });
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data.id as string;
}

const statusOf = async (id: string, key: string) =>
  (await t.get(`/documents/${id}`, key)).body.data.attributes.extraction_status as string;

it("reads another account's document while one account's hostile pile waits its turn", async () => {
  const hostile = manyStreamBomb(15, 60 * 1024 * 1024);
  const pile: string[] = [];
  for (let i = 0; i < 4; i++) {
    pile.push(await upload(Buffer.concat([hostile, Buffer.from(`%${i}\n`)]), `h${i}.pdf`, t.keyA));
  }
  const other = await upload(await arrivalNotice(), 'arrival.pdf', t.keyB);

  let status = await statusOf(other, t.keyB);
  for (const started = Date.now(); status === 'pending'; status = await statusOf(other, t.keyB)) {
    if (Date.now() - started > 150_000) throw new Error('the other account waited too long');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  expect(status).toBe('extracted');
  // The pile is not through yet: the other account did not wait behind it.
  const pileStatuses = await Promise.all(pile.map((id) => statusOf(id, t.keyA)));
  expect(pileStatuses).toContain('pending');

  await t.service.store.context.documents.service.idle();
  const finished = await Promise.all(pile.map((id) => statusOf(id, t.keyA)));
  expect(finished).toEqual(pile.map(() => 'failed'));
}, 180_000);
