/**
 * What a webhook's custom header may be, checked at registration (create and update) so a
 * stored header can always be sent: the name an RFC 9110 token, not one the service sets itself,
 * not a built-in object property name, not repeated; the value an RFC 9110 field-value (visible
 * ASCII and obs-text bytes with inner spaces and tabs; no control characters, no line breaks, no
 * characters beyond U+00FF such as U+2028).
 */
import type { JsonApiErrorObject } from '../jsonapi/errors';

export interface WebhookHeader {
  name: string;
  value: string;
}

/** Header names the service sets itself; a webhook may not override them. */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'host',
  'te',
  'trailer',
  'expect',
  'user-agent',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'x-t49-webhook-signature',
]);

/** token = 1*tchar (RFC 9110 section 5.6.2). */
const TOKEN_RE = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** field-value = *field-content, without leading or trailing whitespace (section 5.5). */
const FIELD_VALUE_RE =
  /^(?:[\x21-\x7e\x80-\xff](?:[\t\x20-\x7e\x80-\xff]*[\x21-\x7e\x80-\xff])?)?$/;
/** Names that would reach built-ins when headers are handled as a plain object. */
const OBJECT_BUILT_INS = new Set(
  [...Object.getOwnPropertyNames(Object.prototype), 'prototype'].map((n) => n.toLowerCase()),
);

/** Errors for the headers at `${pointerBase}/headers/i`; empty when all may be sent. */
export function webhookHeaderErrors(
  headers: readonly WebhookHeader[] | null | undefined,
  pointerBase: string,
): Omit<JsonApiErrorObject, 'status' | 'title'>[] {
  const errors: Omit<JsonApiErrorObject, 'status' | 'title'>[] = [];
  const seen = new Set<string>();
  headers?.forEach((h, i) => {
    const pointer = `${pointerBase}/headers/${i}`;
    const lower = h.name.toLowerCase();
    if (!TOKEN_RE.test(h.name)) {
      errors.push({
        detail: `${JSON.stringify(h.name)} is not a valid header name (RFC 9110 token)`,
        source: { pointer: `${pointer}/name` },
      });
    } else if (RESERVED_HEADERS.has(lower) || lower.startsWith('proxy-')) {
      errors.push({ detail: `${h.name} is set by the service`, source: { pointer } });
    } else if (OBJECT_BUILT_INS.has(lower)) {
      errors.push({
        detail: `${h.name} is not allowed as a header name`,
        source: { pointer: `${pointer}/name` },
      });
    } else if (seen.has(lower)) {
      errors.push({
        detail: `${h.name} appears more than once`,
        source: { pointer: `${pointer}/name` },
      });
    }
    seen.add(lower);
    if (!FIELD_VALUE_RE.test(h.value)) {
      errors.push({
        detail:
          'header values must be visible characters with inner spaces or tabs: no line breaks, ' +
          'control characters, surrounding whitespace or characters beyond U+00FF',
        source: { pointer: `${pointer}/value` },
      });
    }
  });
  return errors;
}
