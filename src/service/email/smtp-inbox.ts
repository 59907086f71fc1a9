/**
 * The SMTP listener for email submissions (smtp-server + mailparser). Mail is accepted only for
 * an account's inbox address, `track+<token>@<any host>`: an unknown recipient is refused at
 * RCPT TO (550) and a message over the size limit at MAIL FROM (SIZE) or after DATA (552), so
 * nothing is stored for either. Each accepted message becomes one email_submission with its
 * PDF and image attachments as documents, which are then extracted.
 */
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Documents } from '../documents';

/** Largest accepted message (the encoded mail, attachments included). */
export const MAX_MAIL_BYTES = 25 * 1024 * 1024;

const INBOX_RE = /^track\+([0-9a-z]{8,64})@[^@\s]+$/i;

const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

const addresses = (value: AddressObject | AddressObject[] | undefined): string[] =>
  (Array.isArray(value) ? value : value ? [value] : []).flatMap((a) =>
    a.value.flatMap((v) => (v.address ? [v.address] : [])),
  );

export interface SmtpInbox {
  port: number;
  close(): Promise<void>;
}

export async function startSmtpInbox(
  documents: Documents,
  options: {
    host: string;
    port: number;
    maxBytes?: number;
    logger?: { warn(obj: unknown, msg?: string): void };
  },
): Promise<SmtpInbox> {
  const maxBytes = options.maxBytes ?? MAX_MAIL_BYTES;
  /** Accounts named by the accepted recipients of each session's current message. */
  const recipients = new Map<string, Set<string>>();
  const server = new SMTPServer({
    banner: 'Quayside document inbox',
    size: maxBytes,
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    logger: false,
    socketTimeout: 60_000,
    onMailFrom(address, session, callback) {
      recipients.set(session.id, new Set());
      const declared = Number(address.args && (address.args as Record<string, string>).SIZE);
      if (declared > maxBytes) {
        callback(smtpError(552, `Message size exceeds the limit of ${maxBytes} bytes`));
        return;
      }
      callback();
    },
    onRcptTo(address, session, callback) {
      const token = INBOX_RE.exec(address.address)?.[1];
      const refuse = () => callback(smtpError(550, `No such mailbox: ${address.address}`));
      if (!token) return refuse();
      documents.store.accountIdByInboxToken(token).then(
        (accountId) => {
          if (!accountId) return refuse();
          recipientsOf(session).add(accountId);
          callback();
        },
        () => callback(smtpError(451, 'Temporary failure, try again later')),
      );
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        // Stop keeping bytes once over the limit; smtp-server keeps counting.
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) {
          callback(smtpError(552, `Message size exceeds the limit of ${maxBytes} bytes`));
          return;
        }
        const accounts = [...recipientsOf(session)];
        store(Buffer.concat(chunks), accounts).then(
          () => callback(),
          (err: unknown) => {
            options.logger?.warn({ err }, 'email submission could not be stored');
            callback(smtpError(451, 'The message could not be stored, try again later'));
          },
        );
      });
    },
    onClose(session) {
      recipients.delete(session.id);
    },
  });

  function recipientsOf(session: SMTPServerSession): Set<string> {
    let set = recipients.get(session.id);
    if (!set) recipients.set(session.id, (set = new Set()));
    return set;
  }

  async function store(raw: Buffer, accountIds: string[]): Promise<void> {
    const mail = await simpleParser(raw);
    const header = (name: string) => {
      const v = mail.headers.get(name);
      if (typeof v === 'string') return v;
      return v && typeof v === 'object' && 'value' in v ? String(v.value) : null;
    };
    const references = Array.isArray(mail.references)
      ? mail.references
      : mail.references
        ? [mail.references]
        : [];
    for (const accountId of accountIds) {
      await documents.service.addEmail(
        accountId,
        {
          subject: mail.subject ?? null,
          body: mail.text ?? null,
          from: addresses(mail.from),
          to: addresses(mail.to),
          cc: addresses(mail.cc),
          sentAt: mail.date ? mail.date.toISOString() : null,
          messageId: mail.messageId ?? null,
          inReplyTo: mail.inReplyTo ?? null,
          references,
          contentType: header('content-type'),
        },
        mail.attachments.map((a) => ({
          bytes: a.content,
          fileName: a.filename ?? 'attachment',
        })),
      );
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => options.logger?.warn({ err }, 'smtp server error'));
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
