/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
/**
 * Sending a delivery order by email: a real service on 127.0.0.1:0 whose outgoing mail server
 * is a real SMTP receiver on 127.0.0.1:0 (smtp-server, password checked). The trucker's contact
 * gets one message with the stored PDF attached; the errors are JSON:API errors; the password
 * in the server's URL shows in no answer and no log line.
 */
import { Writable } from 'node:stream';
import { simpleParser, type ParsedMail } from 'mailparser';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type RunningService } from '../../../src/service';
import { OutgoingMail } from '../../../src/service/email/outgoing-mail';
import { ManualClock } from '../../../src/shared/clock';
import { seedShipment, startTestService, type TestService } from '../../support/service';
import { arrivalNotice } from '../../support/documents/generated-pdfs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PASSWORD = 'pa55-Wh1sper';
const REFUSED = 'gone@harbor.test';

let receiver: SMTPServer;
let receiverPort: number;
const received: { to: string[]; mail: ParsedMail }[] = [];
let service: RunningService;
let dataDir: string;
const logLines: string[] = [];
let plain: TestService;
let box: { id: string; number: string };
let bl: string;
let trucker: string;

const api = async (method: string, url: string, body?: unknown, key = service.initialKey!) => {
  const res = await fetch(`${service.baseUrl}${url}`, {
    method,
    headers: {
      Authorization: `Token ${key}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/vnd.api+json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
};

async function uploadOrder(bytes: Uint8Array, truckerId = trucker) {
  const form = new FormData();
  form.append(
    'delivery_order',
    JSON.stringify({
      container: { id: box.id, number: box.number },
      trucker: { id: truckerId, name: 'Harbor Dray' },
      sent_at: '2026-01-22T15:00:00.000Z',
      last_free_day: { date: '2026-01-25', time_zone: 'America/Los_Angeles', source: 'terminal' },
      terminal: 'Harbor Terminal',
      pickup_appointment_at: null,
      holds: [],
      pickup_number: null,
    }),
  );
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), 'order.pdf');
  const res = await fetch(`${service.baseUrl}/documents`, {
    method: 'POST',
    headers: { Authorization: `Token ${service.initialKey!}` },
    body: form,
  });
  const body = (await res.json()) as any;
  expect(res.status, JSON.stringify(body)).toBe(201);
  return body.data.id as string;
}

const party = async (name: string, email?: string) =>
  (
    await api('POST', '/parties', {
      data: {
        type: 'party',
        attributes: {
          company_name: name,
          roles: ['trucker'],
          ...(email ? { contacts: [{ name: 'Dispatch', email }] } : {}),
        },
      },
    })
  ).body.data.id as string;

beforeAll(async () => {
  receiver = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === 'orders@quayside.test' && auth.password === PASSWORD)
        done(null, { user: auth.username });
      else done(new Error('535 5.7.8 Authentication failed'));
    },
    onRcptTo(address, _session, done) {
      if (address.address === REFUSED)
        done(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
      else done();
    },
    onData(stream, session, done) {
      void simpleParser(stream).then((mail) => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
        done();
      }, done);
    },
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverPort = (receiver.server.address() as { port: number }).port;

  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-send-'));
  const sink = new Writable({
    write(chunk: Buffer, _encoding, next) {
      logLines.push(chunk.toString());
      next();
    },
  });
  service = await startService({
    dataDir,
    port: 0,
    clock: new ManualClock(Date.UTC(2026, 0, 22, 16)),
    logger: pino({ level: 'debug' }, sink),
    config: {
      requestsPerMinute: 10_000,
      outgoingMail: OutgoingMail.parse(
        `smtp://orders%40quayside.test:${PASSWORD}@127.0.0.1:${receiverPort}`,
      ),
    },
  });
  const account = (await service.store.accounts.primary())!;
  const seeded = await seedShipment(
    { service, clock: { advance: () => undefined } } as unknown as TestService,
    account.id,
    'MEDU4300001',
  );
  box = seeded.containers[0]!;
  bl = seeded.shipment.bill_of_lading_number;
  trucker = await party('Harbor Dray', 'dispatch@harbor.test');
  plain = await startTestService();
});

afterAll(async () => {
  await service?.close();
  await plain?.close();
  await new Promise<void>((resolve) => (receiver ? receiver.close(resolve) : resolve()));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /documents/{id}/send (Quayside extension)', () => {
  it('says outgoing mail is configured, and sends the order to the trucker with the PDF attached', async () => {
    const settings = await api('GET', '/documents/settings');
    expect(settings.body.data.attributes.outgoing_mail).toBe(true);

    const bytes = await arrivalNotice('MEDU4300001');
    const id = await uploadOrder(bytes);
    const sent = await api('POST', `/documents/${id}/send`, {});
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.data.attributes.emailed).toEqual({
      to: ['dispatch@harbor.test'],
      sent_at: '2026-01-22T16:00:00.000Z',
    });
    // Kept with the document: the list (what every desktop syncs) says it too.
    const again = await api('GET', `/documents/${id}`);
    expect(again.body.data.attributes.emailed.to).toEqual(['dispatch@harbor.test']);

    expect(received).toHaveLength(1);
    const { to, mail } = received[0]!;
    expect(to).toEqual(['dispatch@harbor.test']);
    expect(mail.subject).toBe(`Delivery order: container ${box.number}, B/L ${bl}`);
    expect(mail.text).toContain('Harbor Dray');
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments[0]!.contentType).toBe('application/pdf');
    expect(Buffer.compare(mail.attachments[0]!.content, Buffer.from(bytes))).toBe(0);
  });

  it('sends to the addresses given instead of the contacts', async () => {
    const id = await uploadOrder(await arrivalNotice('MEDU4300002'));
    const sent = await api('POST', `/documents/${id}/send`, {
      data: { attributes: { to: ['yard@harbor.test', 'night@harbor.test'] } },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(received.at(-1)!.to).toEqual(['yard@harbor.test', 'night@harbor.test']);
  });

  it('an invalid address or no recipient is a 422 and nothing is sent', async () => {
    const before = received.length;
    const id = await uploadOrder(await arrivalNotice('MEDU4300003'));
    const bad = await api('POST', `/documents/${id}/send`, {
      data: { attributes: { to: ['yard@harbor.test', 'not an address'] } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0]).toMatchObject({
      status: '422',
      code: 'invalid_address',
      source: { pointer: '/data/attributes/to/1' },
    });
    const silent = await party('Quiet Haulage');
    const orphan = await uploadOrder(await arrivalNotice('MEDU4300004'), silent);
    const none = await api('POST', `/documents/${orphan}/send`, {});
    expect(none.status, JSON.stringify(none.body)).toBe(422);
    expect(none.body.errors[0].code).toBe('no_recipient');
    expect(none.body.errors[0].detail).toContain('Quiet Haulage has no contact with an email');
    expect(received.length).toBe(before);
    expect((await api('GET', `/documents/${id}`)).body.data.attributes.emailed).toBeNull();
  });

  it("another account's document is a 404", async () => {
    const id = await uploadOrder(await arrivalNotice('MEDU4300005'));
    const account = await service.store.accounts.create('elsewhere');
    const key = await service.store.accounts.createKey(account.id);
    const res = await api('POST', `/documents/${id}/send`, {}, key);
    expect(res.status).toBe(404);
  });

  it('a mail server that refuses the message is a 502 naming it, and the service goes on', async () => {
    const id = await uploadOrder(await arrivalNotice('MEDU4300006'));
    const res = await api('POST', `/documents/${id}/send`, {
      data: { attributes: { to: [REFUSED] } },
    });
    expect(res.status).toBe(502);
    expect(res.body.errors[0].detail).toContain(
      `The outgoing mail server smtp://127.0.0.1:${receiverPort} did not take the message`,
    );
    expect(res.body.errors[0].detail).toContain('No such mailbox');
    expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    expect((await api('GET', `/documents/${id}`)).body.data.attributes.emailed).toBeNull();
  });

  it('a server that refuses the password is a 502 that does not echo it', async () => {
    const wrong = OutgoingMail.parse(
      `smtp://orders%40quayside.test:nope-${PASSWORD}@127.0.0.1:${receiverPort}`,
    );
    const config = service.store.context.config;
    const kept = config.outgoingMail;
    config.outgoingMail = wrong;
    try {
      const id = await uploadOrder(await arrivalNotice('MEDU4300007'));
      const res = await api('POST', `/documents/${id}/send`, {});
      expect(res.status).toBe(502);
      expect(JSON.stringify(res.body)).not.toContain(PASSWORD);
    } finally {
      config.outgoingMail = kept;
    }
  });

  it('without an outgoing mail server: settings say so and sending is a 409 saying why', async () => {
    const settings = await plain.get('/documents/settings');
    expect(settings.body.data.attributes.outgoing_mail).toBe(false);
    const up = await plain.send('POST', '/documents', {
      data: {
        type: 'document',
        attributes: {
          name: 'order.pdf',
          attached_document: `data:application/pdf;base64,${Buffer.from(await arrivalNotice('MEDU4300008')).toString('base64')}`,
        },
      },
    });
    const res = await plain.send('POST', `/documents/${up.body.data.id}/send`, {
      data: { attributes: { to: ['yard@harbor.test'] } },
    });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ status: '409', code: 'no_outgoing_mail' });
    expect(res.body.errors[0].detail).toContain('no outgoing mail server configured');
  });

  it('the served OpenAPI marks the send route as a Quayside extension', async () => {
    const spec = (await plain.get('/openapi.json')).body;
    const post =
      spec.paths['/v2/documents/{id}/send']?.post ?? spec.paths['/documents/{id}/send']?.post;
    expect(post['x-quayside-extension']).toBe(true);
  });

  it('the URL is checked at start without echoing its password; logs never hold it', () => {
    for (const bad of [
      `http://u:${PASSWORD}@host`,
      `smtp://u:${PASSWORD}@`,
      `smtp://only-user@host`,
      `smtp://u:${PASSWORD}@host/path`,
      'not a url',
    ]) {
      let message = '';
      try {
        OutgoingMail.parse(bad);
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(/^Invalid --smtp-url/);
      expect(message).not.toContain(PASSWORD);
    }
    const mail = OutgoingMail.parse(`smtps://u:${PASSWORD}@mail.example.com`);
    expect(JSON.stringify({ mail })).not.toContain(PASSWORD);
    expect(String(mail)).toBe('smtps://mail.example.com');
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('')).not.toContain(PASSWORD);
  });
});
