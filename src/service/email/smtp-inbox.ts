/**
 * The SMTP listener for email submissions (smtp-server + mailparser). Mail is accepted only for
 * an account's inbox address, `track+<token>@<the configured mail domain>`: any other recipient
 * is refused at RCPT TO (550) and a message over the size limit at MAIL FROM (SIZE) or after
 * DATA (552), so nothing is stored for either. Each accepted message becomes one
 * email_submission with its PDF and image attachments as documents, which are then extracted.
 *
 * A message that can never be taken (headers or subject too long, too many attachments, not
 * readable as mail) is refused with a 5xx, so the sender bounces it instead of retrying for
 * days; only a failure of this side (the database unreachable, a full disk) is a 451.
 */
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerSession } from 'smtp-server';
import type { Documents } from '../documents';
import { isStoreUnavailable } from '../store/dialect';

/** Largest accepted message (the encoded mail, attachments included). */
export const MAX_MAIL_BYTES = 25 * 1024 * 1024;
/** Largest header block of a message (Postfix's default `header_size_limit`). */
export const MAX_HEADER_BYTES = 100 * 1024;
/** Longest subject kept, in characters after decoding. */
export const MAX_SUBJECT_CHARS = 1_000;
/**
 * Most attachments one message may carry: each becomes a document with its own extraction, and
 * a notice, invoice or delivery order rarely comes with more than a handful.
 */
export const MAX_ATTACHMENTS = 20;

const INBOX_RE = /^track\+([0-9a-z]{8,64})@([^@\s]+)$/i;

/** A reply for the client: `code` is the SMTP code, `message` starts with the enhanced code. */
const smtpError = (code: number, message: string) =>
  Object.assign(new Error(message), { responseCode: code });

const isSmtpError = (error: unknown): error is Error & { responseCode: number } =>
  error instanceof Error && typeof (error as { responseCode?: unknown }).responseCode === 'number';

/**
 * True for a failure on this side that may pass: the database, or the operating system (a
 * full disk, too many open files). Anything else about a message will fail again.
 */
const isTemporary = (error: unknown): boolean =>
  isStoreUnavailable(error) || /^E[A-Z]+$/.test(String((error as { code?: unknown }).code));

/** Where the header block ends in a raw message, or -1 when it does not within `limit` bytes. */
function headerEnd(raw: Buffer, limit: number): number {
  const window = raw.subarray(0, limit + 4);
  const crlf = window.indexOf('\r\n\r\n');
  const lf = window.indexOf('\n\n');
  const ends = [crlf, lf].filter((i) => i >= 0);
  if (ends.length > 0) return Math.min(...ends);
  // A message of headers alone ends with them.
  return raw.length <= limit ? raw.length : -1;
}

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
        callback(smtpError(552, `5.3.4 Message size exceeds the limit of ${maxBytes} bytes`));
        return;
      }
      callback();
    },
    onRcptTo(address, session, callback) {
      const [, token, domain] = INBOX_RE.exec(address.address) ?? [];
      const refuse = () =>
        callback(
          smtpError(
            550,
            `5.1.1 No such mailbox: ${address.address} (this inbox takes track+<token>@${documents.mailDomain} only)`,
          ),
        );
      if (!token || domain?.toLowerCase() !== documents.mailDomain.toLowerCase()) return refuse();
      documents.store.accountIdByInboxToken(token).then(
        (accountId) => {
          if (!accountId) return refuse();
          recipientsOf(session).add(accountId);
          callback();
        },
        () => callback(smtpError(451, '4.3.0 Temporary failure, try again later')),
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
          callback(smtpError(552, `5.3.4 Message size exceeds the limit of ${maxBytes} bytes`));
          return;
        }
        const accounts = [...recipientsOf(session)];
        read(Buffer.concat(chunks))
          .then((mail) => store(mail, accounts))
          .then(
            () => callback(),
            (err: unknown) => {
              if (isSmtpError(err)) return callback(err);
              options.logger?.warn({ err }, 'email submission could not be stored');
              callback(
                isTemporary(err)
                  ? smtpError(451, '4.3.0 The message could not be stored, try again later')
                  : smtpError(554, '5.6.0 The message could not be read as mail'),
              );
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

  /** Parses a message within the limits; a message over one is refused for good (5xx). */
  async function read(raw: Buffer): Promise<ParsedMail> {
    if (headerEnd(raw, MAX_HEADER_BYTES) < 0)
      throw smtpError(552, `5.3.4 Message headers exceed the limit of ${MAX_HEADER_BYTES} bytes`);
    const mail = await simpleParser(raw);
    if ((mail.subject ?? '').length > MAX_SUBJECT_CHARS)
      throw smtpError(554, `5.6.0 Subject is longer than ${MAX_SUBJECT_CHARS} characters`);
    if (mail.attachments.length > MAX_ATTACHMENTS)
      throw smtpError(
        552,
        `5.3.4 Too many attachments: ${mail.attachments.length}; at most ${MAX_ATTACHMENTS} per message`,
      );
    return mail;
  }

  async function store(mail: ParsedMail, accountIds: string[]): Promise<void> {
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
