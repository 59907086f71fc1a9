/**
 * The outgoing mail server an operator may configure (`quayside serve --smtp-url`, or
 * QUAYSIDE_SMTP_URL): delivery orders are sent through it. The URL carries a password, so it is
 * kept inside this object: what it shows (`origin`, errors, JSON) never includes the credentials.
 */
export interface OutgoingMessage {
  to: string[];
  subject: string;
  text: string;
  attachment: { fileName: string; contentType: string; bytes: Buffer };
}

/** Raised for a server that refused or could not be reached; its message is safe to show. */
export class OutgoingMailError extends Error {}

export class OutgoingMail {
  /** smtp(s)://host:port, without the user and password. */
  readonly origin: string;
  readonly from: string;
  readonly #url: URL;

  private constructor(url: URL) {
    this.#url = url;
    this.origin = `${url.protocol}//${url.host}`;
    const user = decodeURIComponent(url.username);
    this.from = user.includes('@') ? user : `quayside@${url.hostname}`;
  }

  /**
   * The checked server, or an error naming what is wrong with it and never echoing the URL
   * (it holds the password).
   */
  static parse(raw: string): OutgoingMail {
    const problem = (why: string) =>
      new Error(
        `Invalid --smtp-url (QUAYSIDE_SMTP_URL): ${why}; expected smtp[s]://user:password@host[:port]`,
      );
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw problem('not a URL');
    }
    if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
      throw problem(`the scheme must be smtp or smtps, not ${url.protocol.replace(/:$/, '')}`);
    if (!url.hostname) throw problem('no host');
    if (!url.username || !url.password) throw problem('no user and password');
    if (url.pathname && url.pathname !== '/') throw problem('a path is not allowed');
    return new OutgoingMail(url);
  }

  async send(message: OutgoingMessage): Promise<void> {
    // Loaded on the first send: most services never send mail.
    const { default: nodemailer } = await import('nodemailer');
    const secure = this.#url.protocol === 'smtps:';
    const transport = nodemailer.createTransport({
      host: this.#url.hostname.replace(/^\[|\]$/g, ''),
      port: this.#url.port ? Number(this.#url.port) : secure ? 465 : 587,
      secure,
      auth: {
        user: decodeURIComponent(this.#url.username),
        pass: decodeURIComponent(this.#url.password),
      },
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 30_000,
    });
    try {
      await transport.sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        attachments: [
          {
            filename: message.attachment.fileName,
            contentType: message.attachment.contentType,
            content: message.attachment.bytes,
          },
        ],
      });
    } catch (error) {
      throw new OutgoingMailError(
        `The outgoing mail server ${this.origin} did not take the message: ${this.redact(
          (error as Error).message,
        )}`,
      );
    } finally {
      transport.close();
    }
  }

  /** A server's answer may quote what it was sent: the password never leaves. */
  private redact(text: string): string {
    const secrets = [this.#url.password, decodeURIComponent(this.#url.password)].filter(Boolean);
    return secrets.reduce((t, s) => t.split(s).join('***'), text);
  }

  toJSON() {
    return { origin: this.origin };
  }

  toString() {
    return this.origin;
  }
}
