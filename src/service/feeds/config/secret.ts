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
