/**
 * Shapes of the curated reference data shipped as built JSON in `resources/reference/`.
 * The service serves it (/v2/ports, /terminals, /shipping_lines, ...) and the simulated world
 * plays journeys over it. Facts only: codes, names, coordinates, zones.
 */

/** resources/reference/ports.json */
export interface PortRecord {
  /** UN/LOCODE, e.g. `USLAX`. Unique. */
  locode: string;
  name: string;
  city: string | null;
  /** US/CA state or province abbreviation, else null. */
  state_abbr: string | null;
  state: string | null;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
  country: string;
  /** IANA zone, checked against the coordinates. */
  time_zone: string;
  latitude: number;
  longitude: number;
}

/** resources/reference/metro_areas.json: inland destinations reached by rail. */
export interface MetroAreaRecord {
  locode: string;
  name: string;
  state_abbr: string | null;
  country_code: string;
  time_zone: string;
  latitude: number;
  longitude: number;
}

/** resources/reference/terminals.json: marine terminals at ports. */
export interface TerminalRecord {
  /** CBP FIRMS code (US) or a sublocation code; unique key of the record. */
  firms_code: string;
  smdg_code: string | null;
  bic_facility_code: string | null;
  name: string;
  nickname: string | null;
  street: string | null;
  city: string | null;
  state: string | null;
  state_abbr: string | null;
  zip: string | null;
  country: string;
  port_locode: string;
}

/** resources/reference/rail_terminals.json: inland rail ramps. */
export interface RailTerminalRecord {
  firms_code: string;
  name: string;
  nickname: string | null;
  metro_locode: string;
  /** Set when the ramp is at a port (on-dock rail), else null. */
  port_locode: string | null;
  /** SCAC of the railroad operating the ramp, e.g. `UPRR`, `BNSF`. */
  rail_carrier_scac: string;
}

/** The kinds of number a tracking request names (`request_type`). */
export type TrackingNumberKind = 'bill_of_lading' | 'booking_number' | 'container';

/** resources/reference/shipping_lines.json */
export interface ShippingLineRecord {
  scac: string;
  name: string;
  short_name: string;
  /** Container owner prefixes (ISO 6346 owner code + category `U`), e.g. `MSCU`, `MEDU`. */
  container_prefixes: string[];
  /** Prefixes the line puts on its bills of lading (often the SCAC itself). */
  bill_of_lading_prefixes: string[];
  /** Prefixes of the line's booking numbers, when it uses any. */
  booking_prefixes: string[];
  /** Other SCACs the line is also known by. */
  alternative_scacs: string[];
  /**
   * The kinds of number the line can be tracked by (the real service's `*_tracking_support`
   * flags); a tracking request of another kind is refused.
   */
  tracks_by: TrackingNumberKind[];
}

/** resources/reference/vessels.json */
export interface VesselRecord {
  name: string;
  /** 7 digits with a valid IMO check digit. */
  imo: string;
  /** 9 digits; the first three are the flag's MID. */
  mmsi: string;
  /** SCAC of the operating line. */
  operator_scac: string;
  /** Nominal capacity in TEU. */
  teu: number;
  /** Service speed in knots. */
  service_speed_knots: number;
}

export const REFERENCE_FILES = {
  ports: 'ports.json',
  metroAreas: 'metro_areas.json',
  terminals: 'terminals.json',
  railTerminals: 'rail_terminals.json',
  shippingLines: 'shipping_lines.json',
  vessels: 'vessels.json',
} as const;
