import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { checkEvent } from '../../../../src/service/feeds/dcsa/client';
import { eventDomain } from './event-domain-schema';
import { referenceFile } from '../../../support/reference-files';
import { equipmentEvent, feederJourneyEvents, journeyEvents } from './fixtures';

const yamlPath = referenceFile('dcsa-tnt-v2.2.0.yaml');

interface OpenApiDoc {
  info: { version: string };
  paths: Record<
    string,
    { get: { responses: Record<string, { content: Record<string, { schema: object }> }> } }
  >;
}

function eventsResponseValidator() {
  const doc = yaml.load(readFileSync(yamlPath, 'utf8')) as OpenApiDoc;
  expect(doc.info.version).toBe('2.2.0');
  const schema = doc.paths['/v2/events']?.get.responses['200']?.content['application/json']?.schema;
  expect(schema).toBeDefined();
  // strict off: the OpenAPI 3.0 keywords (example, nullable, discriminator) are not JSON Schema.
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(eventDomain);
  return ajv.compile(schema as object);
}

describe('DCSA documents against the T&T 2.2 YAML', () => {
  const validate = eventsResponseValidator();

  it('accepts every event document the tests use (all event types and classifiers)', () => {
    const all = [...journeyEvents(), ...feederJourneyEvents()];
    const ok = validate(all);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
    const kinds = new Set(all.map((e) => `${e.eventType}/${e.eventClassifierCode}`));
    expect([...kinds].sort()).toEqual([
      'EQUIPMENT/ACT',
      'SHIPMENT/ACT',
      'TRANSPORT/ACT',
      'TRANSPORT/EST',
      'TRANSPORT/PLN',
    ]);
    // And our own tolerant schema accepts them too.
    expect(all.every((e) => checkEvent(e).ok)).toBe(true);
  });

  it('accepts every equipment event code and both load states', () => {
    const codes = [
      'LOAD',
      'DISC',
      'GTIN',
      'GTOT',
      'STUF',
      'STRP',
      'PICK',
      'DROP',
      'INSP',
      'RSEA',
      'RMVD',
    ] as const;
    const docs = codes.flatMap((c) =>
      (['EMPTY', 'LADEN'] as const).map((load) =>
        equipmentEvent(c, 'EST', '2026-01-01T00:00:00Z', load, { locode: 'NLRTM', mode: 'TRUCK' }),
      ),
    );
    expect(validate(docs)).toBe(true);
    expect(docs.every((e) => checkEvent(e).ok)).toBe(true);
  });

  it('the adapter keeps what the YAML refuses but can still be read; both refuse an unreadable time', () => {
    const bad = {
      ...equipmentEvent('LOAD', 'ACT', '2026-01-01T00:00:00Z', 'LADEN', {
        locode: 'NLRTM',
        mode: 'VESSEL',
      }),
    };
    delete (bad as { emptyIndicatorCode?: string }).emptyIndicatorCode;
    expect(validate([bad])).toBe(false);
    // Without its empty/laden indicator the load still happened where and when it says.
    expect(checkEvent(bad)).toMatchObject({ ok: true });

    const badTime = { ...journeyEvents()[0], eventDateTime: 'yesterday' };
    expect(validate([badTime])).toBe(false);
    expect(checkEvent(badTime)).toMatchObject({ ok: false });
  });
});
