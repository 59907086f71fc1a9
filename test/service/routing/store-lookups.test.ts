import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type OpenedDatabase } from '../../../src/service/store/db';
import { storeRouteLookups } from '../../../src/service/store/vessels';
import { PORTS, VESSELS } from './fixtures';

describe('route look-ups over the service store', () => {
  let dir: string;
  let opened: OpenedDatabase;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-route-store-'));
    opened = await openDatabase(dir);
    await opened.db
      .insertInto('ports')
      .values([PORTS.yokohama, PORTS.losAngeles].map((p) => ({ ...p, city: p.name })))
      .execute();
    const v = VESSELS[0]!;
    await opened.db
      .insertInto('vessels')
      .values({
        ...v,
        operator_scac: null,
        latitude: null,
        longitude: null,
        nautical_speed_knots: null,
        navigational_heading_degrees: null,
        position_timestamp: null,
      })
      .execute();
  });

  afterAll(async () => {
    await opened?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finds ports by UN/LOCODE and vessels by IMO', async () => {
    const lookups = storeRouteLookups(opened.db);
    const ports = await lookups.ports(['USLAX', 'JPYOK', 'USLAX', 'XXXXX']);
    expect(ports.map((p) => p.locode).sort()).toEqual(['JPYOK', 'USLAX']);
    expect(ports.find((p) => p.locode === 'USLAX')).toEqual(PORTS.losAngeles);
    expect(await lookups.ports([])).toEqual([]);
    expect(await lookups.vessel({ imo: VESSELS[0]!.imo })).toEqual(VESSELS[0]);
    expect(await lookups.vessel({ imo: '9999998' })).toBeNull();
    expect(await lookups.vessel({ imo: null })).toBeNull();
  });
});
