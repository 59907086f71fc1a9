/**
 * SSRF guard for outgoing webhook requests. A webhook url is checked when it is registered and
 * again on every delivery: the literal host is classified, names are resolved and every address
 * they resolve to is classified, and the connection itself goes through a DNS lookup that refuses
 * blocked addresses (so a name cannot resolve to a public address at registration and to a
 * private one at delivery). Redirects are never followed by the sender.
 */
import dns from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

export interface UrlGuardOptions {
  /**
   * Allow loopback and private (RFC 1918, ULA, site-local, CGNAT) targets and plain http, for
   * local use.
   */
  allowPrivate: boolean;
}

/** Why a target is refused; `undefined` when it is allowed. */
export type AddressClass = 'public' | 'loopback' | 'private' | 'forbidden';

export class BlockedTargetError extends Error {
  readonly code = 'WEBHOOK_TARGET_BLOCKED';
}

// Never reachable from a webhook: unspecified, link-local (cloud metadata lives there), multicast,
// reserved and documentation ranges.
const forbidden = new BlockList();
forbidden.addSubnet('0.0.0.0', 8, 'ipv4');
forbidden.addSubnet('169.254.0.0', 16, 'ipv4');
forbidden.addSubnet('192.0.0.0', 24, 'ipv4');
forbidden.addSubnet('192.0.2.0', 24, 'ipv4');
forbidden.addSubnet('198.18.0.0', 15, 'ipv4');
forbidden.addSubnet('198.51.100.0', 24, 'ipv4');
forbidden.addSubnet('203.0.113.0', 24, 'ipv4');
forbidden.addSubnet('224.0.0.0', 4, 'ipv4');
forbidden.addSubnet('240.0.0.0', 4, 'ipv4');
forbidden.addAddress('::', 'ipv6');
forbidden.addSubnet('fe80::', 10, 'ipv6');
forbidden.addSubnet('ff00::', 8, 'ipv6');
forbidden.addSubnet('100::', 64, 'ipv6');
forbidden.addSubnet('2001:db8::', 32, 'ipv6');
// AWS's IPv6 metadata endpoint sits inside the ULA range; refuse it even when private is allowed.
forbidden.addAddress('fd00:ec2::254', 'ipv6');

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const privateRanges = new BlockList();
privateRanges.addSubnet('10.0.0.0', 8, 'ipv4');
privateRanges.addSubnet('172.16.0.0', 12, 'ipv4');
privateRanges.addSubnet('192.168.0.0', 16, 'ipv4');
privateRanges.addSubnet('100.64.0.0', 10, 'ipv4');
privateRanges.addSubnet('fc00::', 7, 'ipv6');
// Site-local (deprecated by RFC 3879, still routed inside some networks): private like ULA.
privateRanges.addSubnet('fec0::', 10, 'ipv6');

/** Expands an IPv6 address to its eight 16-bit groups. */
function ipv6Groups(address: string): number[] {
  let text = address.split('%')[0]!;
  // A trailing dotted IPv4 part (e.g. ::ffff:127.0.0.1) becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -dotted[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const h = parse(head);
  const t = tail === undefined ? [] : parse(tail);
  const fill = tail === undefined ? [] : new Array<number>(8 - h.length - t.length).fill(0);
  return [...h, ...fill, ...t];
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries and may be routed to: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-translated (`::ffff:0:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64
 * (`64:ff9b::/96`, `64:ff9b:1::/48`), 6to4 (`2002:AABB:CCDD::/48`) and Teredo (`2001::/32`: the
 * server and the bit-inverted client address). Empty for any other address.
 */
function embeddedIpv4s(address: string): string[] {
  const g = ipv6Groups(address);
  if (g.length !== 8 || g.some((x) => !Number.isInteger(x) || x < 0 || x > 0xffff)) return [];
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const last = ipv4Of(g[6]!, g[7]!);
  if (zeros(0, 5) && g[5] === 0xffff) return [last];
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return [last];
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return [last];
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return [last];
  if (zeros(0, 6) && (g[6] !== 0 || g[7]! > 1)) return [last];
  if (g[0] === 0x2002) return [ipv4Of(g[1]!, g[2]!)];
  if (g[0] === 0x2001 && g[1] === 0) {
    return [ipv4Of(g[2]!, g[3]!), ipv4Of(~g[6]! & 0xffff, ~g[7]! & 0xffff)];
  }
  return [];
}

/** Most restrictive first: an address is as blocked as the worst address it stands for. */
const SEVERITY: AddressClass[] = ['forbidden', 'loopback', 'private', 'public'];

/** Classifies one IP address (v4 or v6, no brackets). */
export function classifyAddress(address: string): AddressClass {
  const family = isIP(address);
  if (family === 0) return 'forbidden';
  if (family === 6) {
    const embedded = embeddedIpv4s(address);
    if (embedded.length) {
      const classes = embedded.map(classifyAddress);
      return SEVERITY.find((c) => classes.includes(c))!;
    }
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  const bare = address.split('%')[0]!;
  if (forbidden.check(bare, type)) return 'forbidden';
  if (loopback.check(bare, type)) return 'loopback';
  if (privateRanges.check(bare, type)) return 'private';
  return 'public';
}

/** A human-readable reason the address may not be used, or undefined when it may. */
export function addressRefusal(address: string, options: UrlGuardOptions): string | undefined {
  const kind = classifyAddress(address);
  if (kind === 'public') return undefined;
  if (options.allowPrivate && (kind === 'loopback' || kind === 'private')) return undefined;
  const what =
    kind === 'loopback'
      ? 'a loopback address'
      : kind === 'private'
        ? 'a private network address'
        : 'a reserved, link-local or metadata address';
  return `${address} is ${what}`;
}

/** Host names that always mean this machine, whatever DNS says. */
const isLocalName = (host: string) =>
  host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain';

export interface ParsedTarget {
  url: URL;
  /** Host without IPv6 brackets. */
  host: string;
}

/**
 * Checks the url's form (absolute http(s), https unless private targets are allowed, no
 * credentials) and its literal host. Returns the refusal reason or the parsed target.
 */
export function checkUrlShape(
  raw: string,
  options: UrlGuardOptions,
): { error: string } | { target: ParsedTarget } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { error: 'url must be an absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { error: 'url must use https' };
  if (url.protocol === 'http:' && !options.allowPrivate) return { error: 'url must use https' };
  if (url.username || url.password) return { error: 'url must not contain credentials' };
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (!host) return { error: 'url must have a host' };
  if (isIP(host)) {
    const refusal = addressRefusal(host, options);
    if (refusal) return { error: `url is not allowed: ${refusal}` };
  } else if (isLocalName(host.replace(/\.$/, '')) && !options.allowPrivate) {
    return { error: `url is not allowed: ${host} is a loopback host name` };
  }
  return { target: { url, host } };
}

const REGISTRATION_LOOKUP_MS = 3_000;

/**
 * Full registration-time check: the shape, then every address the host name resolves to. A name
 * that does not resolve now is accepted (delivery checks it again when it connects).
 */
export async function checkWebhookUrl(
  raw: string,
  options: UrlGuardOptions,
): Promise<string | undefined> {
  const shape = checkUrlShape(raw, options);
  if ('error' in shape) return shape.error;
  const { host } = shape.target;
  if (isIP(host)) return undefined;
  let addresses: dns.LookupAddress[];
  let timer: NodeJS.Timeout | undefined;
  try {
    // A resolver that hangs (offline machine) must not hang the request: give up after a while.
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('lookup timed out')), REGISTRATION_LOOKUP_MS);
    });
    addresses = await Promise.race([
      dns.promises.lookup(host, { all: true, verbatim: true }),
      timeout,
    ]);
  } catch {
    return undefined;
  } finally {
    clearTimeout(timer);
  }
  for (const a of addresses) {
    const refusal = addressRefusal(a.address, options);
    if (refusal)
      return `url is not allowed: ${host} resolves to ${refusal.replace(/^\S+ is /, '')} (${a.address})`;
  }
  return undefined;
}

/**
 * A `lookup` for net/tls.connect that resolves normally and fails the connection when any
 * resolved address is refused, so the socket never opens to a blocked address.
 */
export function checkedLookup(options: UrlGuardOptions): LookupFunction {
  return (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (err, addresses) => {
      if (err) {
        callback(err, '', 0);
        return;
      }
      const list = addresses as dns.LookupAddress[];
      for (const a of list) {
        const refusal = addressRefusal(a.address, options);
        if (refusal) {
          callback(
            new BlockedTargetError(`${hostname} resolves to a blocked address: ${refusal}`),
            '',
            0,
          );
          return;
        }
      }
      if (lookupOptions.all) {
        (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      } else {
        const first = list[0];
        if (!first) callback(new Error(`${hostname} did not resolve`), '', 0);
        else callback(null, first.address, first.family);
      }
    });
  };
}
