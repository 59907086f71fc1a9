/**
 * The sync's sliced JSON parser: the same value (or the same refusal) as JSON.parse, with turns
 * of the event loop while a large page is parsed.
 */
import { describe, expect, it } from 'vitest';
import { parseJsonSliced } from '../../../src/main/sync/sliced-json';

/** A page shaped like a container page with its events, with awkward strings throughout. */
function page(containers: number, eventsEach: number): Record<string, unknown> {
  const tricky = [
    'say "hi"',
    'back\\slash\\',
    'brackets ] } [ {',
    'comma, "quote\\"',
    'ünï ☃ 🚢',
    // What an element boundary looks like in compact text, inside a string.
    '}},{"id":"fake","type":"container"',
    '',
  ];
  const data = Array.from({ length: containers }, (_, i) => ({
    id: `c-${i}`,
    type: 'container',
    attributes: {
      number: `MSCU${String(i).padStart(7, '0')}`,
      note: tricky[i % tricky.length],
      // Objects ending in an object, in an array: an element boundary's look, one level deeper.
      holds:
        i % 3 === 0
          ? []
          : [
              { name: 'customs', detail: { text: tricky[(i + 1) % tricky.length] } },
              { name: 'freight', detail: { text: tricky[(i + 2) % tricky.length] } },
            ],
      weight: i * 1.5,
      nothing: null,
      flags: [true, false, [[], {}]],
    },
    relationships: {
      transport_events: {
        data: Array.from({ length: eventsEach }, (_, e) => ({ id: `e-${i}-${e}`, type: 'x' })),
      },
    },
  }));
  const included = data.flatMap((_, i) =>
    Array.from({ length: eventsEach }, (_, e) => ({
      id: `e-${i}-${e}`,
      type: 'transport_event',
      attributes: { event: 'container.transport.vessel_loaded', where: tricky[e % tricky.length] },
    })),
  );
  return { data, included, empty: [], links: { next: null }, meta: { total: containers } };
}

async function sameAsJsonParse(text: string): Promise<void> {
  let expected: unknown;
  try {
    expected = JSON.parse(text);
  } catch {
    await expect(parseJsonSliced(text)).rejects.toBeInstanceOf(SyntaxError);
    return;
  }
  expect(await parseJsonSliced(text)).toEqual(expected);
}

describe('parseJsonSliced', () => {
  it('reads a large page exactly as JSON.parse does', async () => {
    const text = JSON.stringify(page(300, 20), null, 1);
    expect(text.length).toBeGreaterThan(1_000_000);
    const parsed = (await parseJsonSliced(text)) as ReturnType<typeof page>;
    expect(parsed).toEqual(JSON.parse(text));
    expect((parsed.included as unknown[]).length).toBe(6000);
  });

  it('reads a large compact page exactly as JSON.parse does', async () => {
    const text = JSON.stringify(page(600, 20));
    expect(text.length).toBeGreaterThan(1_000_000);
    expect(await parseJsonSliced(text)).toEqual(JSON.parse(text));
    // Elements far longer than a batch, and arrays of numbers between arrays of objects.
    const long = JSON.stringify({
      numbers: Array.from({ length: 60_000 }, (_, i) => i),
      data: page(40, 400).included,
      big: [page(30, 30), page(30, 30)],
      more: page(200, 5).data,
    });
    expect(await parseJsonSliced(long)).toEqual(JSON.parse(long));
  });

  it('reads small bodies, top-level arrays and scalars as JSON.parse does', async () => {
    for (const text of ['{"a":[1,2]}', '[1,2,3]', '"x"', '42', 'null', ' {"data":[]} ']) {
      await sameAsJsonParse(text);
    }
  });

  it('keeps a "__proto__" member a plain member, as JSON.parse does', async () => {
    const text = `{"__proto__":[${'{"polluted":true},'.repeat(20_000)}{}],"data":[]}`;
    const parsed = (await parseJsonSliced(text)) as Record<string, unknown>;
    expect(Object.getPrototypeOf(parsed)).toBe(Object.prototype);
    expect(Object.prototype.hasOwnProperty.call(parsed, '__proto__')).toBe(true);
    expect((parsed as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses malformed large text as JSON.parse does, wherever the damage is', async () => {
    const valid = JSON.stringify(page(100, 10));
    expect(valid.length).toBeGreaterThan(128 * 1024);
    const cases = [
      valid.slice(0, -1), // cut off
      `${valid}x`, // trailing garbage
      valid.replace('"included":[', '"included":[,'), // leading comma
      valid.replace(/\]\s*,"empty"/, ',],"empty"'), // trailing comma
      valid.replace('"empty":[]', '"empty":[,]'),
      valid.replace('"c-20"', '"c-20'), // an unterminated string in the middle
      valid.replace('"links"', 'links'),
      valid.replace(/\}\]/, '}}'), // a bracket closed by a brace
      // A trailing comma exactly where a batch ends (an element longer than a batch).
      `{"data":["${'x'.repeat(200_000)}",]}`,
      `{"data":["${'x'.repeat(200_000)}",,"y"]}`,
    ];
    for (const text of cases) await sameAsJsonParse(text);

    // And single-character damage anywhere: same value or the same refusal (seeded, bounded).
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const noise = ['"', '\\', ',', '[', ']', '{', '}', ':', ' ', '1'];
    for (let n = 0; n < 150; n++) {
      const at = Math.floor(random() * valid.length);
      const ch = noise[Math.floor(random() * noise.length)];
      await sameAsJsonParse(valid.slice(0, at) + ch + valid.slice(at + 1));
    }
  });

  it('lets the event loop run while a large page is parsed', async () => {
    const text = JSON.stringify(page(1200, 20));
    let turns = 0;
    let parsing = true;
    const tick = () => {
      turns++;
      if (parsing) setImmediate(tick);
    };
    setImmediate(tick);
    await parseJsonSliced(text);
    parsing = false;
    expect(turns).toBeGreaterThan(1);
  });
});
