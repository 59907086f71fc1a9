/**
 * Webhook secrets and signatures. Each delivery is signed two ways with the webhook's secret:
 * - `X-T49-Webhook-Signature`: hex HMAC-SHA256 of the raw body, keyed with the secret string
 *   (the reference API's header);
 * - Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`), an
 *   HMAC-SHA256 of `{id}.{timestamp}.{body}` so receivers can also reject replays. Secrets are
 *   generated as `whsec_<base64>`; as the Standard Webhooks libraries do, the key is the decoded
 *   bytes after `whsec_` (a secret without that prefix is used as its UTF-8 bytes).
 */
import { createHmac, randomBytes } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-T49-Webhook-Signature';

export function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

function standardKey(secret: string): Buffer {
  return secret.startsWith('whsec_')
    ? Buffer.from(secret.slice('whsec_'.length), 'base64')
    : Buffer.from(secret, 'utf8');
}

export function referenceSignature(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('hex');
}

export function standardSignature(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const mac = createHmac('sha256', standardKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/** The headers of one signed delivery (the secret is optional only for test triggers). */
export function signedHeaders(
  body: string,
  id: string,
  timestampSeconds: number,
  secret: string | undefined,
): Record<string, string> {
  const headers: Record<string, string> = {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
  };
  if (secret) {
    headers[SIGNATURE_HEADER] = referenceSignature(secret, body);
    headers['webhook-signature'] = standardSignature(secret, id, timestampSeconds, body);
  }
  return headers;
}
