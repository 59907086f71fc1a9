/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EVENT_NAMES } from '../../../src/shared/api/resources';
import { startTestService, type TestService } from '../../support/service';
import { startReceiver, verifySignatures, type Receiver } from '../../support/webhook-receiver';

const body = (attributes: Record<string, unknown>) => ({ data: { type: 'webhook', attributes } });

/** DELETE without a body, as clients send it. */
async function del(t: TestService, path: string, key = t.keyA) {
  const res = await fetch(t.baseUrl + path, {
    method: 'DELETE',
    headers: { Authorization: `Token ${key}` },
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('webhook registration (private targets allowed)', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestService({ allowPrivateWebhooks: true });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  it('creates, reads, edits and deletes a webhook, scoped to the account', async () => {
    const created = await t.send(
      'POST',
      '/webhooks',
      body({
        url: receiver.url,
        active: true,
        events: ['tracking_request.succeeded', 'container.updated'],
        headers: [{ name: 'x-secret-sauce', value: 'sriracha' }],
      }),
    );
    expect(created.status).toBe(201);
    const hook = created.body.data;
    expect(hook.type).toBe('webhook');
    expect(hook.attributes).toMatchObject({
      url: receiver.url,
      active: true,
      events: ['tracking_request.succeeded', 'container.updated'],
      headers: [{ name: 'x-secret-sauce', value: 'sriracha' }],
    });
    expect(hook.attributes.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const other = await t.send(
      'POST',
      '/webhooks',
      body({ url: receiver.url, active: true, events: ['container.created'] }),
    );
    expect(other.body.data.attributes.secret).not.toBe(hook.attributes.secret);

    expect((await t.get(`/webhooks/${hook.id}`)).body.data.id).toBe(hook.id);
    expect((await t.get(`/webhooks/${hook.id}`, t.keyB)).status).toBe(404);
    expect((await t.get('/webhooks', t.keyB)).body.meta.total).toBe(0);
    expect((await t.get('/webhooks')).body.meta.total).toBe(2);

    const patched = await t.send(
      'PATCH',
      `/webhooks/${hook.id}`,
      body({ active: false, events: ['container.created'] }),
    );
    expect(patched.status).toBe(200);
    expect(patched.body.data.attributes).toMatchObject({
      active: false,
      events: ['container.created'],
      url: receiver.url,
      secret: hook.attributes.secret,
    });
    expect((await t.get(`/webhooks/${hook.id}`)).body.data.attributes.active).toBe(false);
    expect(
      (await t.send('PATCH', `/webhooks/${hook.id}`, body({ active: true }), { key: t.keyB }))
        .status,
    ).toBe(404);

    expect((await del(t, `/webhooks/${hook.id}`, t.keyB)).status).toBe(404);
    expect((await del(t, `/webhooks/${hook.id}`)).status).toBe(200);
    expect((await t.get(`/webhooks/${hook.id}`)).status).toBe(404);
    await del(t, `/webhooks/${other.body.data.id}`);
  });

  it('refuses unknown events, bad headers and missing fields with pointers', async () => {
    const res = await t.send(
      'POST',
      '/webhooks',
      body({
        url: receiver.url,
        active: true,
        events: ['container.created', 'container.exploded'],
        headers: [
          { name: 'webhook-signature', value: 'forged' },
          { name: 'x-ok', value: 'a\r\nInjected: yes' },
        ],
      }),
    );
    expect(res.status).toBe(422);
    const pointers = res.body.errors.map((e: any) => e.source.pointer);
    expect(pointers).toEqual([
      '/data/attributes/events/1',
      '/data/attributes/headers/0',
      '/data/attributes/headers/1/value',
    ]);
    expect(res.body.errors[0].detail).toMatch(/container\.exploded is not a webhook event/);

    const empty = await t.send(
      'POST',
      '/webhooks',
      body({ url: receiver.url, active: true, events: [] }),
    );
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0].source.pointer).toBe('/data/attributes/events');

    const missing = await t.send('POST', '/webhooks', body({ active: true }));
    expect(missing.status).toBe(422);
    expect(missing.body.errors[0].source.pointer).toMatch(/^\/data\/attributes/);
    expect((await t.get('/webhooks')).body.meta.total).toBe(0);
  });

  it('accepts a webhook without `events` (the reference requires only url and active): it receives every event', async () => {
    const created = await t.send('POST', '/webhooks', body({ url: receiver.url, active: true }));
    expect(created.status).toBe(201);
    expect([...created.body.data.attributes.events].sort()).toEqual(
      [...WEBHOOK_EVENT_NAMES].sort(),
    );
    await del(t, `/webhooks/${created.body.data.id}`);
  });

  it('serves the event catalog covering every event name exactly once', async () => {
    const res = await t.get('/webhooks/events');
    expect(res.status).toBe(200);
    const names = res.body.data.flatMap((c: any) => {
      expect(c.type).toBe('webhook_event_category');
      return c.attributes.events.map((e: any) => {
        expect(e.description.length).toBeGreaterThan(5);
        return e.name;
      });
    });
    expect([...names].sort()).toEqual([...WEBHOOK_EVENT_NAMES].sort());
  });

  it('serves an example payload per event, and 400 for an unknown one', async () => {
    for (const event of [
      'tracking_request.succeeded',
      'container.updated',
      'shipment.estimated.arrival',
    ]) {
      const res = await t.get(`/webhook_notifications/examples?event=${event}`);
      expect(res.status).toBe(200);
      expect(res.body.data[0].attributes.event).toBe(event);
    }
    const tr = (await t.get('/webhook_notifications/examples?event=tracking_request.succeeded'))
      .body;
    expect(tr.data[0].relationships.reference_object.data.type).toBe('tracking_request');
    expect(tr.included.map((r: any) => r.type)).toEqual(
      expect.arrayContaining(['tracking_request', 'shipment', 'container']),
    );
    const updated = (await t.get('/webhook_notifications/examples?event=container.updated')).body;
    const event = updated.included.find((r: any) => r.type === 'container_updated_event');
    expect(event.attributes.changeset.available_for_pickup).toEqual([false, true]);
    const eta = (await t.get('/webhook_notifications/examples?event=shipment.estimated.arrival'))
      .body;
    expect(eta.data[0].relationships.reference_object.data.type).toBe('estimated_event');
    // As the real service: the event must be named.
    for (const query of ['', '?event=']) {
      const none = await t.get(`/webhook_notifications/examples${query}`);
      expect(none.status).toBe(400);
      expect(none.body.errors[0]).toMatchObject({
        status: '400',
        title: 'Bad Request',
        source: { parameter: 'event' },
      });
      expect(none.body.errors[0].detail).toMatch(/event is required/);
    }
    const bad = await t.get('/webhook_notifications/examples?event=nope');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source.parameter).toBe('event');
  });

  it('triggers a signed test delivery of every catalog event to a local receiver', async () => {
    const catalog = (await t.get('/webhooks/events')).body.data.flatMap((c: any) =>
      c.attributes.events.map((e: any) => e.name as string),
    );
    const before = receiver.received.length;
    for (const event of catalog) {
      const res = await t.send(
        'POST',
        '/webhooks/trigger',
        { url: receiver.url, event, secret: 'optional-test-secret' },
        { contentType: 'application/json' },
      );
      expect(res.status, event).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({
        url: receiver.url,
        succeeded: true,
        status_code: 200,
        error: null,
        response_body: 'ok',
      });
      expect(res.body.latency_ms).toBeGreaterThanOrEqual(0);
      const got = receiver.received.at(-1)!;
      expect(got.body).toBe(res.body.request_body);
      expect(got.json.data.attributes.event).toBe(event);
      expect(verifySignatures(got, 'optional-test-secret')).toEqual({
        reference: true,
        standard: true,
      });
    }
    expect(receiver.received.length - before).toBe(catalog.length);
    // Nothing was stored for a trigger.
    expect((await t.get('/webhook_notifications')).body.meta.total).toBe(0);
  });

  it('reports a failing endpoint and validates the trigger body', async () => {
    const failing = await startReceiver(() => 500);
    try {
      const res = await t.send(
        'POST',
        '/webhooks/trigger',
        { url: failing.url, event: 'container.created' },
        { contentType: 'application/json' },
      );
      expect(res.body).toMatchObject({ succeeded: false, status_code: 500, error: 'HTTP 500' });
      // Without a secret there is nothing to sign with.
      expect(failing.received[0]!.headers['x-t49-webhook-signature']).toBeUndefined();
    } finally {
      await failing.close();
    }
    const bad = await t.send(
      'POST',
      '/webhooks/trigger',
      { url: receiver.url, event: 'nope' },
      { contentType: 'application/json' },
    );
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/event');
    const noUrl = await t.send(
      'POST',
      '/webhooks/trigger',
      { event: 'container.created' },
      { contentType: 'application/json' },
    );
    expect(noUrl.status).toBe(422);
    expect(noUrl.body.errors[0].source.pointer).toBe('/url');
  });
});

describe('SSRF guard (private targets not allowed)', () => {
  let t: TestService;
  let receiver: Receiver;
  beforeAll(async () => {
    t = await startTestService();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await t.close();
  });

  const refused = [
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[fe80::1]/hook',
    'https://localhost/hook',
    'https://app.localhost/hook',
    'https://192.168.1.20/hook',
    'https://2130706433/hook',
    'http://example.com/hook',
    'ftp://example.com/hook',
    'not a url',
  ];

  it.each(refused)('refuses %s at registration with a 422 on the url', async (url) => {
    const res = await t.send(
      'POST',
      '/webhooks',
      body({ url, active: true, events: ['container.created'] }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/url');
    expect(res.body.errors[0].detail).toMatch(/url (must|is not allowed)/);
  });

  it('refuses an SSRF target on edit and on trigger', async () => {
    const ok = await t.send(
      'POST',
      '/webhooks',
      body({ url: 'https://hooks.example.com/in', active: true, events: ['container.created'] }),
    );
    expect(ok.status).toBe(201);
    const patched = await t.send(
      'PATCH',
      `/webhooks/${ok.body.data.id}`,
      body({ url: 'https://169.254.169.254/' }),
    );
    expect(patched.status).toBe(422);
    expect(patched.body.errors[0].source.pointer).toBe('/data/attributes/url');

    const trigger = await t.send(
      'POST',
      '/webhooks/trigger',
      { url: receiver.url, event: 'container.created' },
      { contentType: 'application/json' },
    );
    expect(trigger.status).toBe(422);
    expect(trigger.body.errors[0].source.pointer).toBe('/url');
    expect(receiver.received).toHaveLength(0);
  });

  it('refuses loopback again at delivery time', async () => {
    const { sender } = t.service.store.context.webhooks;
    const direct = await sender.post(receiver.url.replace('http:', 'https:'), '{}', {});
    expect(direct.succeeded).toBe(false);
    expect(direct.error).toMatch(/loopback/);
    expect(receiver.received).toHaveLength(0);
  });
});
