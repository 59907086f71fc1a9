/**
 * Builds resources/reference/*.json from the curated lists in this folder.
 * Run: npx tsx scripts/reference/build.ts
 * Every port and metro zone is checked against its coordinates with tz-lookup; where the country
 * default disagrees, the looked-up zone wins and the difference is printed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import tzLookup from '@photostructure/tz-lookup';
import {
  REFERENCE_FILES,
  type MetroAreaRecord,
  type PortRecord,
  type TerminalRecord,
  type VesselRecord,
} from '../../src/shared/reference-data';
import { PORT_ROWS } from './ports';
import { EU_TERMINALS, METRO_ROWS, RAIL_RAMPS, US_TERMINALS } from './facilities';
import { SHIPPING_LINES, VESSEL_ROWS } from './lines';

const COUNTRIES: Record<string, [name: string, defaultZone: string | null]> = {
  AE: ['United Arab Emirates', 'Asia/Dubai'],
  AO: ['Angola', 'Africa/Lagos'],
  AR: ['Argentina', 'America/Argentina/Buenos_Aires'],
  AU: ['Australia', null],
  BB: ['Barbados', 'America/Barbados'],
  BD: ['Bangladesh', 'Asia/Dhaka'],
  BE: ['Belgium', 'Europe/Brussels'],
  BG: ['Bulgaria', 'Europe/Sofia'],
  BJ: ['Benin', 'Africa/Lagos'],
  BR: ['Brazil', null],
  BS: ['Bahamas', 'America/Toronto'],
  CA: ['Canada', null],
  CG: ['Congo', 'Africa/Lagos'],
  CI: ["Cote d'Ivoire", 'Africa/Abidjan'],
  CL: ['Chile', 'America/Santiago'],
  CM: ['Cameroon', 'Africa/Lagos'],
  CN: ['China', 'Asia/Shanghai'],
  CO: ['Colombia', 'America/Bogota'],
  CR: ['Costa Rica', 'America/Costa_Rica'],
  CU: ['Cuba', 'America/Havana'],
  CW: ['Curacao', 'America/Puerto_Rico'],
  DE: ['Germany', 'Europe/Berlin'],
  DJ: ['Djibouti', 'Africa/Nairobi'],
  DK: ['Denmark', 'Europe/Berlin'],
  DO: ['Dominican Republic', 'America/Santo_Domingo'],
  DZ: ['Algeria', 'Africa/Algiers'],
  EC: ['Ecuador', 'America/Guayaquil'],
  EE: ['Estonia', 'Europe/Tallinn'],
  EG: ['Egypt', 'Africa/Cairo'],
  ES: ['Spain', null],
  FI: ['Finland', 'Europe/Helsinki'],
  FJ: ['Fiji', 'Pacific/Fiji'],
  FR: ['France', 'Europe/Paris'],
  GA: ['Gabon', 'Africa/Lagos'],
  GB: ['United Kingdom', 'Europe/London'],
  GE: ['Georgia', 'Asia/Tbilisi'],
  GH: ['Ghana', 'Africa/Abidjan'],
  GN: ['Guinea', 'Africa/Abidjan'],
  GP: ['Guadeloupe', 'America/Puerto_Rico'],
  GR: ['Greece', 'Europe/Athens'],
  GT: ['Guatemala', 'America/Guatemala'],
  GU: ['Guam', 'Pacific/Guam'],
  GY: ['Guyana', 'America/Guyana'],
  HK: ['Hong Kong', 'Asia/Hong_Kong'],
  HN: ['Honduras', 'America/Tegucigalpa'],
  HR: ['Croatia', 'Europe/Belgrade'],
  HT: ['Haiti', 'America/Port-au-Prince'],
  ID: ['Indonesia', null],
  IE: ['Ireland', 'Europe/Dublin'],
  IL: ['Israel', 'Asia/Jerusalem'],
  IN: ['India', 'Asia/Kolkata'],
  IQ: ['Iraq', 'Asia/Baghdad'],
  IR: ['Iran', 'Asia/Tehran'],
  IS: ['Iceland', 'Atlantic/Reykjavik'],
  IT: ['Italy', 'Europe/Rome'],
  JM: ['Jamaica', 'America/Jamaica'],
  JO: ['Jordan', 'Asia/Amman'],
  JP: ['Japan', 'Asia/Tokyo'],
  KE: ['Kenya', 'Africa/Nairobi'],
  KH: ['Cambodia', 'Asia/Bangkok'],
  KR: ['South Korea', 'Asia/Seoul'],
  KW: ['Kuwait', 'Asia/Riyadh'],
  LB: ['Lebanon', 'Asia/Beirut'],
  LK: ['Sri Lanka', 'Asia/Colombo'],
  LR: ['Liberia', 'Africa/Monrovia'],
  LT: ['Lithuania', 'Europe/Vilnius'],
  LV: ['Latvia', 'Europe/Riga'],
  MA: ['Morocco', 'Africa/Casablanca'],
  MG: ['Madagascar', 'Africa/Nairobi'],
  MM: ['Myanmar', 'Asia/Yangon'],
  MQ: ['Martinique', 'America/Martinique'],
  MT: ['Malta', 'Europe/Malta'],
  MU: ['Mauritius', 'Indian/Mauritius'],
  MX: ['Mexico', null],
  MY: ['Malaysia', null],
  MZ: ['Mozambique', 'Africa/Maputo'],
  NA: ['Namibia', 'Africa/Windhoek'],
  NC: ['New Caledonia', 'Pacific/Noumea'],
  NG: ['Nigeria', 'Africa/Lagos'],
  NL: ['Netherlands', 'Europe/Brussels'],
  NO: ['Norway', 'Europe/Berlin'],
  NZ: ['New Zealand', 'Pacific/Auckland'],
  OM: ['Oman', 'Asia/Dubai'],
  PA: ['Panama', 'America/Panama'],
  PE: ['Peru', 'America/Lima'],
  PG: ['Papua New Guinea', 'Pacific/Port_Moresby'],
  PH: ['Philippines', 'Asia/Manila'],
  PK: ['Pakistan', 'Asia/Karachi'],
  PL: ['Poland', 'Europe/Warsaw'],
  PR: ['Puerto Rico', 'America/Puerto_Rico'],
  PT: ['Portugal', null],
  QA: ['Qatar', 'Asia/Qatar'],
  RO: ['Romania', 'Europe/Bucharest'],
  RU: ['Russia', null],
  SA: ['Saudi Arabia', 'Asia/Riyadh'],
  SD: ['Sudan', 'Africa/Khartoum'],
  SE: ['Sweden', 'Europe/Berlin'],
  SG: ['Singapore', 'Asia/Singapore'],
  SI: ['Slovenia', 'Europe/Belgrade'],
  SL: ['Sierra Leone', 'Africa/Abidjan'],
  SN: ['Senegal', 'Africa/Abidjan'],
  SR: ['Suriname', 'America/Paramaribo'],
  SV: ['El Salvador', 'America/El_Salvador'],
  TG: ['Togo', 'Africa/Abidjan'],
  TH: ['Thailand', 'Asia/Bangkok'],
  TN: ['Tunisia', 'Africa/Tunis'],
  TR: ['Turkey', 'Europe/Istanbul'],
  TT: ['Trinidad and Tobago', 'America/Puerto_Rico'],
  TW: ['Taiwan', 'Asia/Taipei'],
  TZ: ['Tanzania', 'Africa/Nairobi'],
  UA: ['Ukraine', 'Europe/Kyiv'],
  US: ['United States', null],
  UY: ['Uruguay', 'America/Montevideo'],
  VE: ['Venezuela', 'America/Caracas'],
  VN: ['Vietnam', 'Asia/Bangkok'],
  ZA: ['South Africa', 'Africa/Johannesburg'],
};

const STATES: Record<string, string> = {
  AK: 'Alaska',
  AL: 'Alabama',
  AZ: 'Arizona',
  CA: 'California',
  CO: 'Colorado',
  DE: 'Delaware',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  IL: 'Illinois',
  KY: 'Kentucky',
  LA: 'Louisiana',
  MA: 'Massachusetts',
  MD: 'Maryland',
  MI: 'Michigan',
  MO: 'Missouri',
  NC: 'North Carolina',
  NJ: 'New Jersey',
  NY: 'New York',
  OH: 'Ohio',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  PR: 'Puerto Rico',
  SC: 'South Carolina',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VA: 'Virginia',
  WA: 'Washington',
  BC: 'British Columbia',
  NB: 'New Brunswick',
  NS: 'Nova Scotia',
  ON: 'Ontario',
  QC: 'Quebec',
};

/**
 * Places where tz-lookup's simplified border grid puts the terminal on the wrong side of a frontier
 * a few kilometres away (Tanger Med is in Morocco, not Ceuta; Aqaba's terminals are in Jordan).
 * test/sim/reference-data.test.ts holds the same list and checks nothing else differs.
 */
export const ZONE_OVERRIDES: Record<string, string> = {
  MAPTM: 'Africa/Casablanca',
  JOAQJ: 'Asia/Amman',
};

/** The zone for a place: tz-lookup's answer, after comparing it with the country default. */
function zoneFor(key: string, country: string, lat: number, lon: number): string {
  const override = ZONE_OVERRIDES[key];
  if (override) return override;
  const looked = tzLookup(lat, lon);
  if (looked.startsWith('Etc/'))
    throw new Error(`${key}: coordinates ${lat},${lon} fall at sea (${looked})`);
  const expected = COUNTRIES[country]?.[1];
  if (expected && expected !== looked)
    console.log(`zone ${key}: country default ${expected}, tz-lookup ${looked} (kept)`);
  return looked;
}

/** IMO number check digit: digits weighted 7..2, sum mod 10. */
export function imoCheckDigit(six: string): number {
  let sum = 0;
  for (let i = 0; i < 6; i++) sum += Number(six[i]) * (7 - i);
  return sum % 10;
}

const ports: PortRecord[] = PORT_ROWS.map(
  ([locode, name, city, stateAbbr, latitude, longitude]) => {
    const cc = locode.slice(0, 2);
    const country = COUNTRIES[cc];
    if (!country) throw new Error(`unknown country ${cc}`);
    // Puerto Rico and Guam carry their own ISO code; no state for them.
    return {
      locode,
      name,
      city,
      state_abbr: stateAbbr,
      state: stateAbbr ? (STATES[stateAbbr] ?? null) : null,
      country_code: cc,
      country: country[0],
      time_zone: zoneFor(locode, cc, latitude, longitude),
      latitude,
      longitude,
    };
  },
);

const metroAreas: MetroAreaRecord[] = METRO_ROWS.map(
  ([locode, name, stateAbbr, cc, latitude, longitude]) => ({
    locode,
    name,
    state_abbr: stateAbbr,
    country_code: cc,
    time_zone: zoneFor(locode, cc, latitude, longitude),
    latitude,
    longitude,
  }),
);

const portByLocode = new Map(ports.map((p) => [p.locode, p]));
const terminals: TerminalRecord[] = [
  ...US_TERMINALS.map((t): TerminalRecord => {
    const port = portByLocode.get(t.port_locode)!;
    return {
      firms_code: t.firms_code,
      smdg_code: t.smdg_code ?? null,
      bic_facility_code: null,
      name: t.name,
      nickname: t.nickname,
      street: t.street ?? null,
      city: port.city,
      state: port.state,
      state_abbr: port.state_abbr,
      zip: t.zip ?? null,
      country: port.country,
      port_locode: t.port_locode,
    };
  }),
  ...EU_TERMINALS.map((t): TerminalRecord => {
    const port = portByLocode.get(t.port_locode)!;
    return {
      firms_code: `${t.port_locode}${t.smdg}`,
      smdg_code: t.smdg,
      bic_facility_code: null,
      name: t.name,
      nickname: t.nickname,
      street: null,
      city: port.city,
      state: null,
      state_abbr: null,
      zip: null,
      country: port.country,
      port_locode: t.port_locode,
    };
  }),
];

const vessels: VesselRecord[] = VESSEL_ROWS.map(([name, base, mmsi, operator, teu, knots]) => ({
  name,
  imo: `${base}${imoCheckDigit(base)}`,
  mmsi,
  operator_scac: operator,
  teu,
  service_speed_knots: knots,
}));

const outDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'resources',
  'reference',
);
mkdirSync(outDir, { recursive: true });
const write = (file: string, data: unknown): void => {
  writeFileSync(path.join(outDir, file), JSON.stringify(data, null, 2) + '\n');
  console.log(`wrote ${file} (${(data as unknown[]).length} records)`);
};
write(REFERENCE_FILES.ports, ports);
write(REFERENCE_FILES.metroAreas, metroAreas);
write(REFERENCE_FILES.terminals, terminals);
write(REFERENCE_FILES.railTerminals, RAIL_RAMPS);
write(REFERENCE_FILES.shippingLines, SHIPPING_LINES);
write(REFERENCE_FILES.vessels, vessels);
console.log('now run: npx prettier --write resources/reference');
