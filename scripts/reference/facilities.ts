/**
 * Curated metro areas, marine terminals and rail ramps.
 *
 * FIRMS codes marked `verified` below match codes used by public terminal integrations; the
 * others are format-valid local codes (letter + 3 characters) that still need checking against
 * the CBP FIRMS list before they are used outside the simulated world.
 */
import type { RailTerminalRecord, TerminalRecord } from '../../src/shared/reference-data';

/** [locode, name, state_abbr, country_code, lat, lon] */
export const METRO_ROWS: [string, string, string | null, string, number, number][] = [
  ['USCHI', 'Chicago', 'IL', 'US', 41.88, -87.63],
  ['USMEM', 'Memphis', 'TN', 'US', 35.15, -90.05],
  ['USDAL', 'Dallas', 'TX', 'US', 32.78, -96.8],
  ['USMKC', 'Kansas City', 'MO', 'US', 39.1, -94.58],
  ['USATL', 'Atlanta', 'GA', 'US', 33.75, -84.39],
  ['USCMH', 'Columbus', 'OH', 'US', 39.96, -83.0],
  ['USDET', 'Detroit', 'MI', 'US', 42.33, -83.05],
  ['USSTL', 'St. Louis', 'MO', 'US', 38.63, -90.2],
  ['USCVG', 'Cincinnati', 'OH', 'US', 39.1, -84.51],
  ['USDEN', 'Denver', 'CO', 'US', 39.74, -104.99],
  ['USSLC', 'Salt Lake City', 'UT', 'US', 40.76, -111.89],
  ['USPHX', 'Phoenix', 'AZ', 'US', 33.45, -112.07],
  ['USBNA', 'Nashville', 'TN', 'US', 36.16, -86.78],
  ['USLUI', 'Louisville', 'KY', 'US', 38.25, -85.76],
  ['USCLT', 'Charlotte', 'NC', 'US', 35.23, -80.84],
  ['USELP', 'El Paso', 'TX', 'US', 31.76, -106.49],
  ['CATOR', 'Toronto', 'ON', 'CA', 43.65, -79.38],
];

type TerminalRow = Pick<TerminalRecord, 'firms_code' | 'name' | 'nickname' | 'port_locode'> &
  Partial<Pick<TerminalRecord, 'smdg_code' | 'street' | 'zip'>>;

/** US marine terminals, keyed by FIRMS code. */
export const US_TERMINALS: TerminalRow[] = [
  // Los Angeles
  { firms_code: 'Y258', name: 'TraPac Los Angeles', nickname: 'TraPac', port_locode: 'USLAX' }, // verified
  { firms_code: 'Y257', name: 'Fenix Marine Services', nickname: 'FMS', port_locode: 'USLAX' }, // verified
  {
    firms_code: 'Y124',
    name: 'Everport Terminal Services Los Angeles',
    nickname: 'Everport',
    port_locode: 'USLAX',
  }, // verified
  { firms_code: 'W185', name: 'APM Terminals Pier 400', nickname: 'APMT', port_locode: 'USLAX' },
  { firms_code: 'Y790', name: 'Yusen Terminals', nickname: 'YTI', port_locode: 'USLAX' },
  {
    firms_code: 'Y773',
    name: 'West Basin Container Terminal',
    nickname: 'WBCT',
    port_locode: 'USLAX',
  },
  // Long Beach
  {
    firms_code: 'WAC8',
    name: 'Long Beach Container Terminal',
    nickname: 'LBCT',
    port_locode: 'USLGB',
  }, // verified
  { firms_code: 'Z978', name: 'SSA Marine Pier A', nickname: 'Pier A', port_locode: 'USLGB' }, // verified
  { firms_code: 'Y309', name: 'Pacific Container Terminal', nickname: 'PCT', port_locode: 'USLGB' }, // verified
  {
    firms_code: 'W182',
    name: 'Total Terminals International',
    nickname: 'TTI',
    port_locode: 'USLGB',
  },
  {
    firms_code: 'W183',
    name: 'International Transportation Service',
    nickname: 'ITS',
    port_locode: 'USLGB',
  },
  // Oakland
  {
    firms_code: 'Z985',
    name: 'Oakland International Container Terminal',
    nickname: 'OICT',
    port_locode: 'USOAK',
  }, // verified
  { firms_code: 'Y549', name: 'TraPac Oakland', nickname: 'TraPac', port_locode: 'USOAK' }, // verified
  {
    firms_code: 'Y738',
    name: 'Everport Terminal Services Oakland (Ben E. Nutter)',
    nickname: 'Everport',
    port_locode: 'USOAK',
  }, // verified
  // Seattle / Tacoma
  { firms_code: 'X117', name: 'Terminal 18', nickname: 'T18', port_locode: 'USSEA' }, // verified
  { firms_code: 'X118', name: 'Terminal 5', nickname: 'T5', port_locode: 'USSEA' },
  { firms_code: 'Z693', name: 'Husky Terminal', nickname: 'Husky', port_locode: 'USTIW' }, // verified
  {
    firms_code: 'Z705',
    name: 'Washington United Terminals',
    nickname: 'WUT',
    port_locode: 'USTIW',
  }, // verified
  // New York / New Jersey
  { firms_code: 'E416', name: 'Maher Terminals', nickname: 'Maher', port_locode: 'USNYC' }, // verified
  {
    firms_code: 'E425',
    name: 'APM Terminals Port Elizabeth',
    nickname: 'APMT',
    port_locode: 'USNYC',
  }, // verified
  { firms_code: 'E364', name: 'GCT Bayonne', nickname: 'GCT Bayonne', port_locode: 'USNYC' }, // verified
  { firms_code: 'E005', name: 'GCT New York', nickname: 'GCT NY', port_locode: 'USNYC' }, // verified
  {
    firms_code: 'E361',
    name: 'Port Newark Container Terminal',
    nickname: 'PNCT',
    port_locode: 'USNYC',
  },
  // Savannah, Charleston, Norfolk, Baltimore, Houston, others
  {
    firms_code: 'L737',
    name: 'Garden City Terminal',
    nickname: 'GCT Savannah',
    port_locode: 'USSAV',
  },
  { firms_code: 'L163', name: 'Wando Welch Terminal', nickname: 'Wando', port_locode: 'USCHS' },
  {
    firms_code: 'L164',
    name: 'Hugh K. Leatherman Terminal',
    nickname: 'Leatherman',
    port_locode: 'USCHS',
  },
  {
    firms_code: 'L005',
    name: 'Norfolk International Terminals',
    nickname: 'NIT',
    port_locode: 'USORF',
  }, // verified
  {
    firms_code: 'N195',
    name: 'Virginia International Gateway',
    nickname: 'VIG',
    port_locode: 'USORF',
  }, // verified
  {
    firms_code: 'C324', // seen in one public FIRMS list
    name: 'Seagirt Marine Terminal',
    nickname: 'Seagirt',
    port_locode: 'USBAL',
  },
  {
    firms_code: 'W002',
    name: 'Barbours Cut Container Terminal',
    nickname: 'Barbours Cut',
    port_locode: 'USHOU',
  },
  {
    firms_code: 'W116',
    name: 'Bayport Container Terminal',
    nickname: 'Bayport',
    port_locode: 'USHOU',
  },
  { firms_code: 'M029', name: 'TraPac Jacksonville', nickname: 'TraPac', port_locode: 'USJAX' }, // verified
  {
    firms_code: 'A295',
    name: 'Conley Container Terminal',
    nickname: 'Conley',
    port_locode: 'USBOS',
  }, // verified
];

/** European terminals, keyed by `{port}{SMDG terminal code}` since FIRMS codes are US only. */
export const EU_TERMINALS: {
  smdg: string;
  name: string;
  nickname: string | null;
  port_locode: string;
}[] = [
  { smdg: 'ECTDE', name: 'ECT Delta Terminal', nickname: 'ECT Delta', port_locode: 'NLRTM' },
  { smdg: 'EUROM', name: 'Euromax Terminal Rotterdam', nickname: 'Euromax', port_locode: 'NLRTM' },
  {
    smdg: 'APMII',
    name: 'APM Terminals Maasvlakte II',
    nickname: 'APMT MVII',
    port_locode: 'NLRTM',
  },
  { smdg: 'RWG', name: 'Rotterdam World Gateway', nickname: 'RWG', port_locode: 'NLRTM' },
  { smdg: 'MPET', name: 'MSC PSA European Terminal', nickname: 'MPET', port_locode: 'BEANR' },
  { smdg: 'ANTGW', name: 'Antwerp Gateway', nickname: 'DP World Antwerp', port_locode: 'BEANR' },
  { smdg: 'PSANZ', name: 'PSA Noordzee Terminal', nickname: 'Noordzee', port_locode: 'BEANR' },
  {
    smdg: 'CTA',
    name: 'HHLA Container Terminal Altenwerder',
    nickname: 'CTA',
    port_locode: 'DEHAM',
  },
  {
    smdg: 'CTB',
    name: 'HHLA Container Terminal Burchardkai',
    nickname: 'CTB',
    port_locode: 'DEHAM',
  },
  { smdg: 'CTT', name: 'HHLA Container Terminal Tollerort', nickname: 'CTT', port_locode: 'DEHAM' },
  {
    smdg: 'EGH',
    name: 'Eurogate Container Terminal Hamburg',
    nickname: 'Eurogate HH',
    port_locode: 'DEHAM',
  },
  { smdg: 'NTB', name: 'North Sea Terminal Bremerhaven', nickname: 'NTB', port_locode: 'DEBRV' },
  { smdg: 'MSCG', name: 'MSC Gate Bremerhaven', nickname: 'MSC Gate', port_locode: 'DEBRV' },
  {
    smdg: 'EGB',
    name: 'Eurogate Container Terminal Bremerhaven',
    nickname: 'Eurogate BHV',
    port_locode: 'DEBRV',
  },
  {
    smdg: 'FXTTR',
    name: 'Port of Felixstowe Trinity Terminal',
    nickname: 'Trinity',
    port_locode: 'GBFXT',
  },
  {
    smdg: 'FXTNQ',
    name: 'Port of Felixstowe North Quay',
    nickname: 'North Quay',
    port_locode: 'GBFXT',
  },
  { smdg: 'TDF', name: 'Terminal de France', nickname: 'TDF', port_locode: 'FRLEH' },
  { smdg: 'TPO', name: 'Terminal Porte Oceane', nickname: 'TPO', port_locode: 'FRLEH' },
  { smdg: 'GMP', name: 'Generale de Manutention Portuaire', nickname: 'GMP', port_locode: 'FRLEH' },
  { smdg: 'MSCTV', name: 'MSC Terminal Valencia', nickname: 'MSCTV', port_locode: 'ESVLC' },
  {
    smdg: 'CSPV',
    name: 'CSP Iberian Valencia Terminal',
    nickname: 'CSP Valencia',
    port_locode: 'ESVLC',
  },
  { smdg: 'APMV', name: 'APM Terminals Valencia', nickname: 'APMT Valencia', port_locode: 'ESVLC' },
  {
    smdg: 'APMAL',
    name: 'APM Terminals Algeciras',
    nickname: 'APMT Algeciras',
    port_locode: 'ESALG',
  },
  {
    smdg: 'TTIA',
    name: 'Total Terminal International Algeciras',
    nickname: 'TTIA',
    port_locode: 'ESALG',
  },
];

/** Inland rail ramps. The railroad SCAC is the reporting mark of the operating railroad. */
export const RAIL_RAMPS: RailTerminalRecord[] = [
  {
    firms_code: 'H572',
    name: 'BNSF Logistics Park Chicago',
    nickname: 'LPC',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'BNSF',
  },
  {
    firms_code: 'H501',
    name: 'BNSF Corwith Intermodal',
    nickname: 'Corwith',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'BNSF',
  },
  {
    firms_code: 'H588',
    name: 'UP Global IV Joliet',
    nickname: 'Global 4',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'UPRR',
  },
  {
    firms_code: 'H573',
    name: 'UP Global II Northlake',
    nickname: 'Global 2',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'UPRR',
  },
  {
    firms_code: 'H590',
    name: 'CSX Bedford Park (59th Street)',
    nickname: 'CSX 59th St',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'CSXT',
  },
  {
    firms_code: 'H574',
    name: 'NS Landers Intermodal',
    nickname: 'Landers',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'H575',
    name: 'NS 47th Street Intermodal',
    nickname: '47th St',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'H576',
    name: 'CN Chicago Intermodal (Harvey)',
    nickname: 'Harvey',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'CN',
  },
  {
    firms_code: 'H577',
    name: 'CPKC Bensenville Intermodal',
    nickname: 'Bensenville',
    metro_locode: 'USCHI',
    port_locode: null,
    rail_carrier_scac: 'CPKC',
  },
  {
    firms_code: 'S701',
    name: 'BNSF Memphis Intermodal',
    nickname: 'BNSF Memphis',
    metro_locode: 'USMEM',
    port_locode: null,
    rail_carrier_scac: 'BNSF',
  },
  {
    firms_code: 'S702',
    name: 'UP Marion Intermodal',
    nickname: 'Marion',
    metro_locode: 'USMEM',
    port_locode: null,
    rail_carrier_scac: 'UPRR',
  },
  {
    firms_code: 'S703',
    name: 'NS Rossville Intermodal',
    nickname: 'Rossville',
    metro_locode: 'USMEM',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'S704',
    name: 'CN Memphis Intermodal Gateway',
    nickname: 'CN Memphis',
    metro_locode: 'USMEM',
    port_locode: null,
    rail_carrier_scac: 'CN',
  },
  {
    firms_code: 'T551',
    name: 'BNSF Alliance Intermodal',
    nickname: 'Alliance',
    metro_locode: 'USDAL',
    port_locode: null,
    rail_carrier_scac: 'BNSF',
  },
  {
    firms_code: 'T552',
    name: 'UP Dallas Intermodal Terminal',
    nickname: 'DIT',
    metro_locode: 'USDAL',
    port_locode: null,
    rail_carrier_scac: 'UPRR',
  },
  {
    firms_code: 'J451',
    name: 'BNSF Logistics Park Kansas City',
    nickname: 'LPKC',
    metro_locode: 'USMKC',
    port_locode: null,
    rail_carrier_scac: 'BNSF',
  },
  {
    firms_code: 'J452',
    name: 'CPKC Kansas City Intermodal',
    nickname: 'CPKC KC',
    metro_locode: 'USMKC',
    port_locode: null,
    rail_carrier_scac: 'CPKC',
  },
  {
    firms_code: 'L851',
    name: 'NS Austell Intermodal',
    nickname: 'Austell',
    metro_locode: 'USATL',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'L852',
    name: 'CSX Fairburn Intermodal',
    nickname: 'Fairburn',
    metro_locode: 'USATL',
    port_locode: null,
    rail_carrier_scac: 'CSXT',
  },
  {
    firms_code: 'K151',
    name: 'NS Rickenbacker Intermodal',
    nickname: 'Rickenbacker',
    metro_locode: 'USCMH',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'K152',
    name: 'CSX Columbus Intermodal',
    nickname: 'CSX Columbus',
    metro_locode: 'USCMH',
    port_locode: null,
    rail_carrier_scac: 'CSXT',
  },
  {
    firms_code: 'K351',
    name: 'CN Detroit Intermodal (Ferndale)',
    nickname: 'Ferndale',
    metro_locode: 'USDET',
    port_locode: null,
    rail_carrier_scac: 'CN',
  },
  {
    firms_code: 'K352',
    name: 'CSX Detroit Intermodal',
    nickname: 'CSX Detroit',
    metro_locode: 'USDET',
    port_locode: null,
    rail_carrier_scac: 'CSXT',
  },
  {
    firms_code: 'K353',
    name: 'NS Detroit Intermodal (Delray)',
    nickname: 'Delray',
    metro_locode: 'USDET',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'J551',
    name: 'UP Dupo Intermodal',
    nickname: 'Dupo',
    metro_locode: 'USSTL',
    port_locode: null,
    rail_carrier_scac: 'UPRR',
  },
  {
    firms_code: 'J552',
    name: 'BNSF St. Louis Intermodal',
    nickname: 'BNSF St. Louis',
    metro_locode: 'USSTL',
    port_locode: null,
    rail_carrier_scac: 'BNSF',
  },
  {
    firms_code: 'K251',
    name: 'NS Cincinnati Intermodal (Sharonville)',
    nickname: 'Sharonville',
    metro_locode: 'USCVG',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'P251',
    name: 'UP Denver Intermodal',
    nickname: 'UP Denver',
    metro_locode: 'USDEN',
    port_locode: null,
    rail_carrier_scac: 'UPRR',
  },
  {
    firms_code: 'P252',
    name: 'BNSF Denver Intermodal',
    nickname: 'BNSF Denver',
    metro_locode: 'USDEN',
    port_locode: null,
    rail_carrier_scac: 'BNSF',
  },
  {
    firms_code: 'P351',
    name: 'UP Salt Lake City Intermodal',
    nickname: 'UP SLC',
    metro_locode: 'USSLC',
    port_locode: null,
    rail_carrier_scac: 'UPRR',
  },
  {
    firms_code: 'P451',
    name: 'BNSF Phoenix Intermodal',
    nickname: 'BNSF Phoenix',
    metro_locode: 'USPHX',
    port_locode: null,
    rail_carrier_scac: 'BNSF',
  },
  {
    firms_code: 'L951',
    name: 'CSX Nashville Intermodal',
    nickname: 'CSX Nashville',
    metro_locode: 'USBNA',
    port_locode: null,
    rail_carrier_scac: 'CSXT',
  },
  {
    firms_code: 'K451',
    name: 'NS Louisville Intermodal',
    nickname: 'NS Louisville',
    metro_locode: 'USLUI',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'L551',
    name: 'NS Charlotte Regional Intermodal',
    nickname: 'CRIF',
    metro_locode: 'USCLT',
    port_locode: null,
    rail_carrier_scac: 'NS',
  },
  {
    firms_code: 'T751',
    name: 'UP Santa Teresa Intermodal',
    nickname: 'Santa Teresa',
    metro_locode: 'USELP',
    port_locode: null,
    rail_carrier_scac: 'UPRR',
  },
  {
    firms_code: 'C001',
    name: 'CN Brampton Intermodal',
    nickname: 'BIT',
    metro_locode: 'CATOR',
    port_locode: null,
    rail_carrier_scac: 'CN',
  },
  {
    firms_code: 'C002',
    name: 'CPKC Vaughan Intermodal',
    nickname: 'Vaughan',
    metro_locode: 'CATOR',
    port_locode: null,
    rail_carrier_scac: 'CPKC',
  },
];
