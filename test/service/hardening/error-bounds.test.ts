/**
 * A huge bad body gets a small error answer: the details that quote the input are cut and the
 * number of error objects is capped, so a 435 KB body is never echoed back (it was, as a 200 KB
 * 422).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ERRORS, MAX_ERROR_TEXT } from '../../../src/service/jsonapi/errors';
import { startTestService, type TestService } from '../../support/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

async function post(path: string, body: unknown) {
  const text = JSON.stringify(body);
  const res = await fetch(`${t.baseUrl}${path}`, {
    method: 'POST',
    headers: { Authorization: `Token ${t.keyA}`, 'Content-Type': 'application/vnd.api+json' },
    body: text,
  });
  const answer = await res.text();
  return {
    sent: text.length,
    status: res.status,
    size: answer.length,
    errors: (JSON.parse(answer) as { errors: { detail?: string }[] }).errors,
  };
}

describe('error answers to huge bad bodies', () => {
  it('cut a detail quoting a 200 KB value', async () => {
    const res = await post('/webhooks', {
      data: {
        type: 'webhook',
        attributes: {
          url: 'https://hooks.example.com/q',
          events: ['x'.repeat(200_000), 'y'.repeat(235_000)],
        },
      },
    });
    expect(res.sent).toBeGreaterThan(435_000);
    expect(res.status).toBe(422);
    expect(res.errors).toHaveLength(2);
    for (const error of res.errors) {
      expect(error.detail!.length).toBeLessThanOrEqual(MAX_ERROR_TEXT);
      expect(error.detail).toMatch(/…$/);
    }
    expect(res.size).toBeLessThan(2_000);
  });

  it('carry at most MAX_ERRORS error objects', async () => {
    const res = await post('/webhooks', {
      data: {
        type: 'webhook',
        attributes: {
          url: 'https://hooks.example.com/q',
          events: Array.from({ length: 5_000 }, (_, i) => `no.such.event.${i}`),
        },
      },
    });
    expect(res.status).toBe(422);
    expect(res.errors).toHaveLength(MAX_ERRORS);
    expect(res.size).toBeLessThan(10_000);
  });
});
