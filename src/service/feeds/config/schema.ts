/**
 * The shape of the feeds file as written by an operator (snake_case keys, secrets still as
 * `${ENV}` / `file:` references). Every object refuses unknown keys so a typo fails loudly
 * instead of being ignored. Auth blocks and AIS entries are validated per `type` so an error
 * names the field the chosen type expects rather than every alternative of a union.
 */
import { Type, type Static } from 'typebox';

const Url = Type.String({ minLength: 1, description: 'an http(s) URL' });
const Port = Type.Integer({ minimum: 1, maximum: 65535 });
const Text = Type.String({ minLength: 1 });
const closed = { additionalProperties: false } as const;
/** Static headers sent with every request, next to a credential (Maersk's Consumer-Key). */
const StaticHeaders = Type.Optional(Type.Record(Type.String(), Text));

export const AUTH_SCHEMAS = {
  none: Type.Object({ type: Type.Literal('none') }, closed),
  headers: Type.Object(
    { type: Type.Literal('headers'), headers: Type.Record(Type.String(), Text) },
    closed,
  ),
  bearer: Type.Object(
    { type: Type.Literal('bearer'), token: Text, headers: StaticHeaders },
    closed,
  ),
  basic: Type.Object(
    { type: Type.Literal('basic'), username: Text, password: Text, headers: StaticHeaders },
    closed,
  ),
  oauth2_client_credentials: Type.Object(
    {
      type: Type.Literal('oauth2_client_credentials'),
      token_url: Url,
      client_id: Text,
      client_secret: Text,
      scope: Type.Optional(Text),
      audience: Type.Optional(Text),
      headers: StaticHeaders,
    },
    closed,
  ),
} as const;

export type AuthKind = keyof typeof AUTH_SCHEMAS;
export type RawAuth = { [K in AuthKind]: Static<(typeof AUTH_SCHEMAS)[K]> }[AuthKind];

export const AIS_SCHEMAS = {
  nmea_tcp: Type.Object({ type: Type.Literal('nmea_tcp'), host: Text, port: Port }, closed),
  nmea_udp: Type.Object(
    {
      type: Type.Literal('nmea_udp'),
      port: Port,
      /** Address to bind; loopback when absent (DEFAULT_AIS_UDP_HOST). */
      host: Type.Optional(Text),
    },
    closed,
  ),
} as const;

export type AisKind = keyof typeof AIS_SCHEMAS;
export type RawAisSource = { [K in AisKind]: Static<(typeof AIS_SCHEMAS)[K]> }[AisKind];

export const CarrierSchema = Type.Object(
  {
    dcsa: Url,
    auth: Type.Optional(Type.Unknown()),
    requests_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
    subscriptions: Type.Optional(Type.Boolean()),
    /** The carrier also serves Quayside's import-deadlines extension (line LFD) at the same base. */
    import_deadlines: Type.Optional(Type.Boolean()),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
  },
  closed,
);

export const TerminalSchema = Type.Object(
  {
    url: Url,
    auth: Type.Optional(Type.Unknown()),
    requests_per_minute: Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000 })),
    concurrency: Type.Optional(Type.Integer({ minimum: 1, maximum: 64 })),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 120_000 })),
  },
  closed,
);

export const FeedsFileSchema = Type.Object(
  {
    carriers: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    ais: Type.Optional(Type.Array(Type.Unknown())),
    terminals: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    /** Where carriers reach this service for subscription callbacks. */
    public_base_url: Type.Optional(Url),
  },
  closed,
);

export const SCAC_PATTERN = /^[A-Z0-9]{2,4}$/;
export const TERMINAL_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
