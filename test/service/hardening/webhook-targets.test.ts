/**
 * IPv6 forms that carry an IPv4 address (translated, mapped, NAT64, 6to4, Teredo) are judged by
 * that IPv4 address: a loopback or private one is refused at registration like the plain form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../src/service/webhooks/url-guard';
import { startTestService, type TestService } from '../../support/service';

let t: TestService;
beforeAll(async () => {
  t = await startTestService();
});
afterAll(async () => t?.close());

const register = (url: string) =>
  t.send('POST', '/webhooks', {
    data: { type: 'webhook', attributes: { url, active: true, events: ['container.created'] } },
  });

describe('IPv6 forms with an embedded IPv4 address', () => {
  it.each([
    'https://[::ffff:0:127.0.0.1]/hook',
    'https://[::ffff:0:7f00:1]/hook',
    'https://[2002:7f00:1::]/hook',
    'https://[2002:a00:1::1]/hook',
    'https://[64:ff9b:1::a9fe:a9fe]/hook',
    // Teredo: the client address is stored bit-inverted (127.0.0.1 -> 80ff:fffe).
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
    'https://[2001:0:7f00:1::]/hook',
  ])('refuses %s at registration with a 422 on the url', async (url) => {
    const res = await register(url);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/url');
    expect(res.body.errors[0].detail).toMatch(/url is not allowed/);
  });

  it('accepts such forms around a public address', async () => {
    expect((await register('https://[2002:808:808::1]/hook')).status).toBe(201);
  });

  it('classifies resolved addresses the same way (the delivery-time lookup uses this)', () => {
    expect(classifyAddress('::ffff:0:127.0.0.1')).toBe('loopback');
    expect(classifyAddress('2002:c0a8:101::1')).toBe('private');
    expect(classifyAddress('2002:a9fe:a9fe::')).toBe('forbidden');
    expect(classifyAddress('2001:0:4136:e378:8000:63bf:f5ff:fffe')).toBe('private');
    expect(classifyAddress('2001:0:4136:e378:8000:63bf:f7f7:f7f7')).toBe('public');
    expect(classifyAddress('2606:4700::1111')).toBe('public');
  });
});

describe('IPv6 site-local (fec0::/10)', () => {
  it('is private: refused at registration and at delivery-time lookups', async () => {
    for (const address of ['fec0::1', 'fed0:1:2::3', 'feff:ffff::1'])
      expect(classifyAddress(address)).toBe('private');
    // The neighbours on either side stay what they were.
    expect(classifyAddress('febf::1')).toBe('forbidden');
    expect(classifyAddress('ff02::1')).toBe('forbidden');
    const res = await register('https://[fec0::1]/hook');
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/url');
  });
});
