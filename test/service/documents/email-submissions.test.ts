/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are untyped JSON */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../../src/shared/clock';
import { startService, type RunningService } from '../../../src/service';
import {
  MAX_ATTACHMENTS,
  MAX_HEADER_BYTES,
  MAX_SUBJECT_CHARS,
} from '../../../src/service/email/smtp-inbox';
import { FIXTURE_REFERENCE_DIR } from '../../support/service';
import {
  ARRIVAL,
  arrivalNotice,
  executable,
  manyStreamBomb,
} from '../../support/documents/generated-pdfs';

let service: RunningService;
let key: string;
let dataDir: string;
let inbox: string;

const get = async (p: string) => {
  const res = await fetch(service.baseUrl + p, { headers: { Authorization: `Token ${key}` } });
  return { status: res.status, body: (await res.json()) as any };
};

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-mail-'));
  service = await startService({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    smtpPort: 0,
    clock: new ManualClock(Date.UTC(2026, 0, 10, 12)),
    referenceDir: FIXTURE_REFERENCE_DIR,
    config: { requestsPerMinute: 10_000, trackingRequestsPerMinute: 10_000 },
  });
  key = service.initialKey!;
  const res = await fetch(`${service.baseUrl}/documents/settings`, {
    method: 'PATCH',
    headers: { Authorization: `Token ${key}`, 'Content-Type': 'application/vnd.api+json' },
    body: JSON.stringify({ data: { attributes: { tracking_mode: 'automatic' } } }),
  });
  const settings = (await res.json()) as any;
  expect(settings.data.attributes.tracking_mode).toBe('automatic');
  inbox = settings.data.attributes.inbox_address;
  expect(inbox).toMatch(/^track\+[0-9a-f]+@/);
});
afterAll(async () => {
  await service?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const transport = () =>
  nodemailer.createTransport({
    host: '127.0.0.1',
    port: service.smtpPort!,
    secure: false,
    ignoreTLS: true,
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10_000,
  });

describe('email submissions over SMTP', () => {
  it('turns a mailed arrival notice into a submission, a document and tracking requests', async () => {
    await transport().sendMail({
      from: 'notices@line.example',
      to: inbox,
      subject: 'Arrival notice MEDUA1234567',
      text: 'Please find the arrival notice attached.',
      attachments: [
        { filename: 'arrival-notice.pdf', content: Buffer.from(await arrivalNotice()) },
        // Not a document: left out of the submission.
        { filename: 'tool.pdf', content: Buffer.from(executable()) },
      ],
    });
    await service.store.context.documents.service.idle();

    const list = await get('/email_submissions?include=documents');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const submission = list.body.data[0];
    expect(submission.attributes).toMatchObject({
      subject: 'Arrival notice MEDUA1234567',
      from: ['notices@line.example'],
      to: [inbox],
      documents_count: 1,
    });
    const document = list.body.included[0];
    expect(document.attributes).toMatchObject({
      source: 'email',
      file_name: 'arrival-notice.pdf',
      document_type: 'arrival_notice',
      extraction_status: 'extracted',
    });

    const requests = await get('/tracking_requests');
    expect(
      requests.body.data.map((r: any) => [r.attributes.request_number, r.attributes.scac]),
    ).toEqual([[ARRIVAL.bl, 'MSCU']]);
    const linked = await get(`/documents/${document.id}?include=email_submission`);
    expect(linked.body.data.relationships.tracking_requests.data).toEqual([
      { type: 'tracking_request', id: requests.body.data[0].id },
    ]);
    expect(linked.body.included[0]).toMatchObject({ type: 'email_submission', id: submission.id });
    expect((await get(`/email_submissions/${submission.id}`)).status).toBe(200);
  });

  it('reads a mailed hostile PDF within the same budget as an upload: it fails with the reason', async () => {
    await transport().sendMail({
      from: 'someone@example.com',
      to: inbox,
      subject: 'Invoice',
      attachments: [
        { filename: 'invoice.pdf', content: Buffer.from(manyStreamBomb(15, 60 * 1024 * 1024)) },
      ],
    });
    await service.store.context.documents.service.idle();
    const list = await get('/documents?filter[source]=email&sort=-created_at');
    const document = list.body.data.find((d: any) => d.attributes.file_name === 'invoice.pdf');
    expect(document.attributes).toMatchObject({
      extraction_status: 'failed',
      extraction_error:
        "The PDF's compressed streams expand beyond 128 MB together; the file looks like a compression bomb",
    });
  });

  it('refuses mail for an unknown address at RCPT TO and stores nothing', async () => {
    const before = (await get('/email_submissions')).body.meta.total;
    await expect(
      transport().sendMail({
        from: 'someone@example.com',
        to: 'track+0000000000000000@localhost',
        subject: 'hello',
        text: 'x',
      }),
    ).rejects.toThrow(/550/);
    expect((await get('/email_submissions')).body.meta.total).toBe(before);
  });

  it('refuses a message over the size limit and stores nothing', async () => {
    const before = (await get('/email_submissions')).body.meta.total;
    await expect(
      transport().sendMail({
        from: 'someone@example.com',
        to: inbox,
        subject: 'too big',
        attachments: [{ filename: 'big.pdf', content: Buffer.alloc(26 * 1024 * 1024, 0x41) }],
      }),
    ).rejects.toThrow(/552/);
    expect((await get('/email_submissions')).body.meta.total).toBe(before);
  });

  /** Sends `mail` to the inbox; resolves with the server's final reply to a refused message. */
  const refusal = async (mail: nodemailer.SendMailOptions) => {
    const error = await transport()
      .sendMail({ from: 'someone@example.com', to: inbox, ...mail })
      .then(
        () => null,
        (e: unknown) => e as { responseCode?: number; response?: string },
      );
    expect(error).not.toBeNull();
    return { code: error!.responseCode, response: error!.response ?? '' };
  };

  it('refuses the inbox token at another domain at RCPT TO', async () => {
    const before = (await get('/email_submissions')).body.meta.total;
    const other = inbox.replace(/@.*$/, '@another.example');
    const refused = await refusal({ to: other, subject: 'hello', text: 'x' });
    expect(refused.code).toBe(550);
    expect(refused.response).toContain('@localhost only');
    expect((await get('/email_submissions')).body.meta.total).toBe(before);
  });

  it('refuses for good (5xx, never 451) what can never be taken, and stores nothing', async () => {
    const before = (await get('/email_submissions')).body.meta.total;
    const headers = await refusal({
      subject: 'huge headers',
      text: 'x',
      headers: Object.fromEntries(
        Array.from({ length: 4500 }, (_, i) => [`X-Filler-${i}`, 'f'.repeat(1000)]),
      ),
    });
    expect(headers.code).toBe(552);
    expect(headers.response).toContain(`headers exceed the limit of ${MAX_HEADER_BYTES} bytes`);

    const hugeSubject = await refusal({ subject: 's'.repeat(2 * 1024 * 1024), text: 'x' });
    expect(hugeSubject.code).toBe(552);

    const longSubject = await refusal({ subject: 's '.repeat(MAX_SUBJECT_CHARS), text: 'x' });
    expect(longSubject.code).toBe(554);
    expect(longSubject.response).toContain(`longer than ${MAX_SUBJECT_CHARS} characters`);

    const many = await refusal({
      subject: 'many attachments',
      text: 'x',
      attachments: Array.from({ length: MAX_ATTACHMENTS + 1 }, (_, i) => ({
        filename: `notice-${i}.pdf`,
        content: Buffer.from(`%PDF-1.4 ${i}`),
      })),
    });
    expect(many.code).toBe(552);
    expect(many.response).toContain(`at most ${MAX_ATTACHMENTS} per message`);
    expect((await get('/email_submissions')).body.meta.total).toBe(before);
  });
});
