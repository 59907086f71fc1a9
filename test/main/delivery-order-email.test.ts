/**
 * The delivery order emailed: a real tracking service on 127.0.0.1:0 whose outgoing mail server
 * is a real SMTP receiver on 127.0.0.1:0, and the app's real cache files. Making the order
 * through the bridge has the service send it to the trucker's contact; the panel's answer says
 * who it went to and when, and nothing is opened for the user to send.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src/main/core/app-core';
import { startService, type RunningService } from '../../src/service';
import { OutgoingMail } from '../../src/service/email/outgoing-mail';
import type { BridgeReply } from '../../src/shared/bridge';
import type { TruckerRecord } from '../../src/shared/desktop';
import { seedShipment, type TestService } from '../support/service';
import { desktopOn } from '../support/app-core-options';

describe('delivery order emailed through the service', () => {
  let dir: string;
  let receiver: SMTPServer;
  let service: RunningService;
  let core: AppCore;
  const received: { to: string[]; mail: ParsedMail }[] = [];
  const opened: string[] = [];
  const call = async <T>(method: string, argument: unknown = null): Promise<T> => {
    const answer: BridgeReply = await core.dispatch(method, argument);
    if (!answer.ok) throw new Error(`${method}: ${answer.error.message}`);
    return answer.result as T;
  };

  beforeAll(async () => {
    receiver = new SMTPServer({
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, done) =>
        auth.password === 'desk-pass' ? done(null, { user: auth.username }) : done(new Error('no')),
      onData(stream, session, done) {
        void simpleParser(stream).then((mail) => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
          done();
        }, done);
      },
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const port = (receiver.server.address() as { port: number }).port;
    dir = mkdtempSync(join(tmpdir(), 'quayside-order-mail-'));
    service = await startService({
      dataDir: join(dir, 'service'),
      port: 0,
      config: {
        requestsPerMinute: 10_000,
        outgoingMail: OutgoingMail.parse(`smtp://orders:desk-pass@127.0.0.1:${port}`),
      },
    });
    core = desktopOn(service, dir, { opened });
  });
  afterAll(async () => {
    await core?.stop();
    await service?.close();
    await new Promise<void>((resolve) => (receiver ? receiver.close(resolve) : resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the order to the trucker and says so', async () => {
    const account = (await service.store.accounts.primary())!;
    const seeded = await seedShipment(
      { service, clock: { advance: () => undefined } } as unknown as TestService,
      account.id,
      'MEDU5600001',
    );
    const box = seeded.containers[0]!;
    await call('syncNow');
    const made = await call<{ ok: true; trucker: TruckerRecord }>('createTrucker', {
      companyName: 'Harbor Drayage',
      scac: 'HBDR',
      email: 'dispatch@harbor.test',
    });
    await call('assignTrucker', { containerIds: [box.id], truckerId: made.trucker.id });
    const order = await call<{
      ok: boolean;
      documentId: string;
      message: string;
      sent: { to: string[]; sentAt: string } | null;
    }>('makeDeliveryOrder', { containerId: box.id });

    expect(order.ok, order.message).toBe(true);
    expect(order.sent?.to).toEqual(['dispatch@harbor.test']);
    expect(order.message).toMatch(
      /^Sent to Harbor Drayage \(dispatch@harbor\.test\) at \d{1,2} \w{3} \d{4} \d\d:\d\d/,
    );
    // Sent, so nothing is opened for the user to send.
    expect(opened).toEqual([]);
    expect(received).toHaveLength(1);
    expect(received[0]!.to).toEqual(['dispatch@harbor.test']);
    expect(received[0]!.mail.subject).toContain(`container ${box.number}`);
    expect(received[0]!.mail.attachments[0]!.contentType).toBe('application/pdf');
  });
});
