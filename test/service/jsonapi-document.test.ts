import { describe, expect, it } from 'vitest';
import {
  rememberSerialized,
  serializeDocument,
  serializedLength,
} from '../../src/service/jsonapi/document';
import type { Resource } from '../../src/service/jsonapi/include';

const container = (id: string, location: string): Resource => ({
  id,
  type: 'container',
  attributes: { number: `MSCU${id}`, pod_terminal_name: location, weight: null },
  relationships: { shipment: { data: { id: 's1', type: 'shipment' } } },
});

/** What the client receives: the UTF-8 of the string or the bytes themselves. */
const sent = (document: unknown): Buffer => {
  const out = serializeDocument(document);
  return typeof out === 'string' ? Buffer.from(out) : out;
};

describe('serializeDocument', () => {
  it('sends the UTF-8 of JSON.stringify, remembered resources and names beyond ASCII included', () => {
    const remembered = rememberSerialized(container('1', 'Zürich → Kraków 🚢'));
    const fresh = container('2', 'Ελευσίνα');
    const document = {
      data: [remembered, fresh, undefined, () => 1],
      included: [rememberSerialized(container('3', 'Port Klang'))],
      links: { self: 'http://127.0.0.1/v2/containers', next: undefined },
      meta: { size: 2, total: 2 },
      skipped: undefined,
    };
    const bytes = sent(document);
    expect(bytes.equals(Buffer.from(JSON.stringify(document)))).toBe(true);
    expect(JSON.parse(bytes.toString('utf8')).data[0].attributes.pod_terminal_name).toBe(
      'Zürich → Kraków 🚢',
    );
  });

  it('sends a page long enough to be written as bytes the same as a short one', () => {
    const page = {
      data: Array.from({ length: 400 }, (_, i) =>
        i % 2
          ? rememberSerialized(container(`r${i}`, 'Zürich → Kraków 🚢'))
          : container(`f${i}`, 'Ελευσίνα'),
      ),
      meta: { size: 400 },
    };
    const out = serializeDocument(page);
    expect(Buffer.isBuffer(out)).toBe(true);
    expect(sent(page).equals(Buffer.from(JSON.stringify(page)))).toBe(true);
  });

  it('freezes a remembered resource, so the JSON it is sent as stays true', () => {
    const resource = rememberSerialized(container('4', 'Savannah'));
    expect(serializedLength(resource)).toBe(JSON.stringify(resource).length);
    expect(() => {
      (resource.attributes as Record<string, unknown>).pod_terminal_name = 'Oakland';
    }).toThrow(TypeError);
    expect(sent({ data: resource }).toString()).toContain('"Savannah"');
  });

  it('writes top-level values that are not objects as JSON.stringify does', () => {
    for (const value of [null, 'text', 7, [1, undefined, 'ü']])
      expect(sent(value).toString('utf8')).toBe(JSON.stringify(value));
  });
});
