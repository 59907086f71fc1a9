/**
 * What a record from a /v2 service must have to be usable, and nothing more: the shared TypeBox
 * schemas of each resource, with every member the spec and the reference do not require made
 * optional and nullable. Members that are present still have to fit their type, but an enum
 * is only a type: a value the lists do not name (a transport event's `data_source: "rail"`, a
 * definition's `entity_type: "Cargo"`, a new status, hold status or fee type) is kept as sent,
 * because the real service sends more values than its documentation lists. Unknown members are
 * allowed and kept, and numbers sent as strings (latitude "33.7", a weight "20210") become numbers
 * before the check.
 *
 * Required, per the spec and the reference's component schemas:
 * - shipment: id, type, attributes, relationships, links; attribute `bill_of_lading_number`
 * - container: id, type, attributes
 * - transport_event, port: id, type
 * - terminal: id, type, attributes (`name`), relationships (`port`); rail_terminal: `name`
 * - tracking_request: id, type, attributes (`request_number`, `status`, `request_type`, `scac`,
 *   `created_at`)
 * - custom_field: id, type, attributes (`api_slug`, `value`); custom_field_definition: attributes
 *   (`entity_type`, `api_slug`, `display_name`, `data_type`); custom_field_option: attributes
 *   (`label`, `value`)
 * An id is required of every kind: the cache keys records by it.
 */
import { Type, type TSchema } from 'typebox';
import {
  ContainerResource,
  PortResource,
  RailTerminalResource,
  ShipmentResource,
  TerminalResource,
  TrackingRequestResource,
  TransportEventResource,
} from '../../shared/api/resources';
import {
  CustomFieldDefinitionResource,
  CustomFieldOptionResource,
  CustomFieldResource,
} from '../../shared/api/custom-fields';

type Schema = TSchema & {
  type?: string;
  anyOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  items?: Schema;
};

/**
 * The schema with every enum widened to its type (strings to any string, numbers to any number),
 * in nested objects and array items too; a lone `const` (a resource's `type`) stays exact.
 */
function widenEnums(schema: Schema): Schema {
  if (Array.isArray(schema.enum)) {
    const { enum: values, ...rest } = schema;
    if (values.every((v) => typeof v === 'string')) return { ...rest, type: 'string' } as Schema;
    if (values.every((v) => typeof v === 'number')) return { ...rest, type: 'number' } as Schema;
    return schema;
  }
  if (schema.anyOf?.length && schema.anyOf.every((v) => typeof v.const === 'string')) {
    return { type: 'string' } as Schema; // a union of string constants is an enum too
  }
  if (schema.anyOf) return { ...schema, anyOf: schema.anyOf.map(widenEnums) };
  if (schema.items) return { ...schema, items: widenEnums(schema.items) };
  if (schema.properties) {
    const properties = Object.fromEntries(
      Object.entries(schema.properties).map(([name, member]) => [name, widenEnums(member)]),
    );
    return { ...schema, properties };
  }
  return schema;
}

const variants = (s: Schema): Schema[] => (s.anyOf ? s.anyOf.flatMap(variants) : [s]);
const isNullable = (s: Schema) => variants(s).some((v) => v.type === 'null');
const objectOf = (s: Schema) => variants(s).find((v) => v.type === 'object' && v.properties);

/** Optional and nullable; an object inside (import_deadlines) gets every member optional too. */
function loose(schema: Schema): TSchema {
  const inner = objectOf(schema);
  const base = inner && !schema.items ? looseObject(inner, []) : schema;
  return Type.Optional(
    isNullable(schema) && base === schema ? base : Type.Union([base, Type.Null()]),
  );
}

function looseObject(schema: Schema, required: readonly string[]): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const [name, member] of Object.entries(schema.properties ?? {})) {
    properties[name] = required.includes(name) ? member : loose(member);
  }
  return Type.Object(properties);
}

interface Requirements {
  /** Top-level members besides id and type. */
  members?: readonly ('attributes' | 'relationships' | 'links')[];
  attributes?: readonly string[];
  relationships?: readonly string[];
}

function tolerant(resource: TSchema, requirements: Requirements): TSchema {
  const r = widenEnums(resource as Schema);
  const props = r.properties!;
  const members = requirements.members ?? [];
  const member = (name: 'attributes' | 'relationships' | 'links', schema: TSchema) =>
    members.includes(name) ? schema : Type.Optional(schema);
  return Type.Object({
    id: Type.String({ minLength: 1 }),
    type: props.type!,
    attributes: member('attributes', looseObject(props.attributes!, requirements.attributes ?? [])),
    ...(props.relationships
      ? {
          relationships: member(
            'relationships',
            looseObject(props.relationships, requirements.relationships ?? []),
          ),
        }
      : {}),
    ...(props.links ? { links: member('links', Type.Object({ self: Type.String() })) } : {}),
  });
}

export const TOLERANT_SCHEMAS = {
  shipment: tolerant(ShipmentResource, {
    members: ['attributes', 'relationships', 'links'],
    attributes: ['bill_of_lading_number'],
  }),
  container: tolerant(ContainerResource, { members: ['attributes'] }),
  transport_event: tolerant(TransportEventResource, {}),
  terminal: tolerant(TerminalResource, {
    members: ['attributes', 'relationships'],
    attributes: ['name'],
    relationships: ['port'],
  }),
  rail_terminal: tolerant(RailTerminalResource, {
    members: ['attributes'],
    attributes: ['name'],
  }),
  port: tolerant(PortResource, {}),
  tracking_request: tolerant(TrackingRequestResource, {
    members: ['attributes'],
    attributes: ['request_number', 'status', 'request_type', 'scac', 'created_at'],
  }),
  custom_field: tolerant(CustomFieldResource, {
    members: ['attributes'],
    attributes: ['api_slug', 'value'],
  }),
  custom_field_definition: tolerant(CustomFieldDefinitionResource, {
    members: ['attributes'],
    attributes: ['entity_type', 'api_slug', 'display_name', 'data_type'],
  }),
  custom_field_option: tolerant(CustomFieldOptionResource, {
    members: ['attributes'],
    attributes: ['label', 'value'],
  }),
} as const;

export type TolerantKind = keyof typeof TOLERANT_SCHEMAS;

const NUMBER = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const acceptsNumber = (s: Schema) =>
  variants(s).some(
    (v) =>
      v.type === 'number' ||
      v.type === 'integer' ||
      (Array.isArray(v.enum) && v.enum.some((e) => typeof e === 'number')),
  );

/** Where in a schema numbers may be sent as strings: worked out once per schema, not per record. */
interface NumberPlan {
  /** This value may be a number. */
  number: boolean;
  items?: NumberPlan;
  properties?: [name: string, plan: NumberPlan][];
  /** Something at or below this value may be a number (else the value is left as it is). */
  anywhere: boolean;
}

const numberPlans = new WeakMap<TSchema, NumberPlan>();

function numberPlan(schema: TSchema): NumberPlan {
  const known = numberPlans.get(schema);
  if (known) return known;
  const s = schema as Schema;
  const items = variants(s).find((v) => v.items)?.items;
  const object = objectOf(s);
  const plan: NumberPlan = {
    number: acceptsNumber(s),
    ...(items ? { items: numberPlan(items) } : {}),
    ...(object
      ? {
          properties: Object.entries(object.properties!).map(
            ([name, member]) => [name, numberPlan(member)] as [string, NumberPlan],
          ),
        }
      : {}),
    anywhere: false,
  };
  plan.anywhere =
    plan.number || !!plan.items?.anywhere || !!plan.properties?.some(([, p]) => p.anywhere);
  numberPlans.set(schema, plan);
  return plan;
}

function convertNumbers(plan: NumberPlan, value: unknown): unknown {
  if (!plan.anywhere) return value;
  if (typeof value === 'string') return plan.number && NUMBER.test(value) ? Number(value) : value;
  if (Array.isArray(value)) {
    const items = plan.items;
    return items?.anywhere ? value.map((v) => convertNumbers(items, v)) : value;
  }
  if (value && typeof value === 'object' && plan.properties) {
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [name, member] of plan.properties) {
      if (member.anywhere && name in out) out[name] = convertNumbers(member, out[name]);
    }
    return out;
  }
  return value;
}

/**
 * Turns numbers sent as strings into numbers wherever the schema wants a number; objects on the
 * way to a converted value are copied, never changed. Nothing else is converted (a null stays
 * null, a string stays a string).
 */
export function numbersFromStrings(schema: TSchema, value: unknown): unknown {
  return convertNumbers(numberPlan(schema), value);
}

/** The shared schema of each kind whose known attributes are named when absent. */
const COMPLETE_ATTRIBUTES: Partial<Record<TolerantKind, TSchema>> = {
  shipment: ShipmentResource,
  container: ContainerResource,
  transport_event: TransportEventResource,
};

/**
 * Names every known attribute the service left out as null (so the cache and its readers see
 * one shape: "not known" is always null). Attributes that were sent, and unknown ones, are kept.
 * `updated_at` is left out when absent: whether a service sends it decides the sync strategy.
 */
export function withKnownAttributes(kind: TolerantKind, record: Record<string, unknown>): unknown {
  const shared = COMPLETE_ATTRIBUTES[kind] as Schema | undefined;
  if (!shared) return record;
  const known = shared.properties!.attributes!.properties!;
  const sent = (record.attributes ?? {}) as Record<string, unknown>;
  let attributes: Record<string, unknown> | null = null;
  for (const name of Object.keys(known)) {
    if (name === 'updated_at' || name in sent) continue;
    (attributes ??= {})[name] = null;
  }
  // A complete record (what a conforming service sends) is kept as it is: no copy to make.
  if (!attributes && record.attributes) return record;
  if (!attributes || Object.hasOwn(sent, '__proto__')) {
    return { ...record, attributes: { ...attributes, ...sent } };
  }
  // The sent attributes copied onto the nulls, keys in the same order as the spread above, at a
  // twelfth of its time (V8 copies a second spread source key by key through its runtime: about
  // 45 µs a shipment). Only where no key is "__proto__", which assigning would make a prototype.
  return { ...record, attributes: Object.assign(attributes, sent) };
}
