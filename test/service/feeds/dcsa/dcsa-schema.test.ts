import { describe, expect, it } from 'vitest';
import { checkEvent } from '../../../../src/service/feeds/dcsa/client';
import { dcsaValidators } from '../../../support/dcsa-domains';
import { equipmentEvent, feederJourneyEvents, journeyEvents } from './fixtures';

describe('DCSA documents against the T&T 2.2 YAML', () => {
  const validators = dcsaValidators();
  const validate = validators.eventsPage;

  it('is the T&T 2.2 document', () => {
    expect((validators.document.info as { version: string }).version).toBe('2.2.0');
  });

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
