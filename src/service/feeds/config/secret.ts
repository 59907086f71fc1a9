/**
 * A credential resolved from the feeds file. The value is reachable only through `reveal()`:
 * JSON, string conversion and `util.inspect` (what loggers and console use) all print a
 * redaction, so a config object can be logged or returned without leaking what it holds.
 */
import { inspect } from 'node:util';

const REDACTED = '[redacted]';

export class Secret {
  readonly #value: string;

  /** `origin` says where the value came from (`env MAEU_SECRET`, `file /run/key`), never the value. */
  constructor(
    value: string,
    readonly origin: string,
  ) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return `Secret(${this.origin})`;
  }
}

/** Longest credential accepted: servers commonly refuse header lines over 8 KiB. */
export const MAX_SECRET_BYTES = 8192;

/**
 * Where a credential goes decides what it may hold: an HTTP header value (`header`, and a bearer
 * token, which also has no spaces) is visible ASCII; a basic-auth pair and OAuth2 form fields
 * are encoded first, so any text without control characters will do (a basic username has no
 * colon).
 */
export type SecretUse = 'header' | 'bearer' | 'basic_username' | 'encoded';

/** What is wrong with a credential for its use, in words that never quote it; null when fine. */
export function secretProblem(value: string, use: SecretUse): string | null {
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes > MAX_SECRET_BYTES)
    return `is ${bytes} bytes long; at most ${MAX_SECRET_BYTES} are accepted`;
  if (/[\r\n]/.test(value)) return 'contains a line break';
  // eslint-disable-next-line no-control-regex -- control characters are what is looked for
  if (/[\u0000-\u001f\u007f]/.test(value)) return 'contains a control character';
  if (/^(["'`]).*\1$/s.test(value)) return 'is wrapped in quotes; write the value without them';
  if (use === 'header' || use === 'bearer') {
    if (/[^\u0020-\u007e]/.test(value))
      return 'contains characters outside visible ASCII, which an HTTP header cannot carry';
    if (value.trim() !== value) return 'starts or ends with a space';
    if (use === 'bearer' && /\s/.test(value)) return 'contains a space';
  }
  if (use === 'basic_username' && value.includes(':')) return 'contains a colon';
  return null;
}

/**
 * `text` with every credential in `values` replaced by a redaction, in the forms an error
 * message may quote it: as is, JSON-escaped, URL-encoded, and each line of a multi-line value.
 * For messages built from what a source or a library said (a body echoing a header, a
 * "Headers.append: … is an invalid header value").
 */
export function redactCredentials(text: string, values: Iterable<string>): string {
  const forms = new Set<string>();
  for (const value of values) {
    if (value.length < 4) continue;
    forms.add(value);
    forms.add(JSON.stringify(value).slice(1, -1));
    forms.add(encodeURIComponent(value));
    // eslint-disable-next-line no-control-regex -- a value split where a message may break it
    for (const piece of value.split(/[\u0000-\u001f\u007f\s]+/))
      if (piece.length >= 4) forms.add(piece);
  }
  let out = text;
  // Longest first, so a piece never leaves the rest of a longer form behind.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}
