import { describe, expect, it } from 'vitest';
import {
  BlockedTargetError,
  checkWebhookUrl,
  checkedLookup,
  classifyAddress,
} from '../../../src/service/webhooks/url-guard';

describe('address classification', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.20.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['100.100.100.200', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.169.254', 'forbidden'],
    ['64:ff9b::a9fe:a9fe', 'forbidden'],
    ['fd00:ec2::254', 'forbidden'],
    ['fe80::1', 'forbidden'],
    ['0.0.0.0', 'forbidden'],
    ['::', 'forbidden'],
    ['224.0.0.1', 'forbidden'],
    ['8.8.8.8', 'public'],
    ['2606:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });
});

describe('url checks', () => {
  it('allows loopback and http only with the private setting, never metadata', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:9/x', { allowPrivate: true })).toBeUndefined();
    expect(await checkWebhookUrl('http://localhost:9/x', { allowPrivate: true })).toBeUndefined();
    expect(await checkWebhookUrl('http://127.0.0.1:9/x', { allowPrivate: false })).toMatch(/https/);
    expect(await checkWebhookUrl('http://169.254.169.254/', { allowPrivate: true })).toMatch(
      /link-local or metadata/,
    );
    expect(await checkWebhookUrl('https://u:p@example.com/', { allowPrivate: false })).toMatch(
      /credentials/,
    );
  });

  it('fails a connection whose name resolves to a blocked address', async () => {
    const lookup = checkedLookup({ allowPrivate: false });
    const err = await new Promise<Error | null>((resolve) =>
      lookup('localhost', { all: true }, (e) => resolve(e)),
    );
    expect(err).toBeInstanceOf(BlockedTargetError);
    const allowed = checkedLookup({ allowPrivate: true });
    const address = await new Promise<string>((resolve, reject) =>
      allowed('localhost', { family: 4 }, (e, a) => (e ? reject(e) : resolve(a as string))),
    );
    expect(address).toBe('127.0.0.1');
  });
});
