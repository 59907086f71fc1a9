/**
 * Custom field definitions, options and values, and parties: resources and request bodies of
 * their /v2 endpoints (the reference's shapes; `created_at` / `updated_at` and the value's
 * `display_name` / `data_type` are Quayside additions).
 */
import { Type, type Static } from 'typebox';
import {
  DateTime,
  ListDocument,
  Nullable,
  NullableString,
  ResourceIdentifier,
  SelfLink,
  SingleDocument,
  ToMany,
  Uuid,
} from './common';

export const CUSTOM_FIELD_DATA_TYPES = [
  'short_text',
  'number',
  'date',
  'datetime',
  'boolean',
  'enum',
  'enum_multi',
  'reference',
] as const;
export const CUSTOM_FIELD_ENTITY_TYPES = ['Shipment', 'Container', 'TrackingRequest'] as const;

/** A value as stored: its JSON type depends on the definition's data type. */
export const CustomFieldValue = Type.Unknown({
  description:
    'short_text: string; number: number; date: "YYYY-MM-DD"; datetime: ISO 8601 with zone; boolean; enum: an option value; enum_multi: option values; reference: a party id.',
});

const literals = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)));

export const CustomFieldDefinitionResource = Type.Object({
  id: Uuid,
  type: Type.Literal('custom_field_definition'),
  attributes: Type.Object({
    entity_type: literals(CUSTOM_FIELD_ENTITY_TYPES),
    api_slug: Type.String(),
    display_name: Type.String(),
    description: NullableString,
    data_type: literals(CUSTOM_FIELD_DATA_TYPES),
    reference_type: NullableString,
    validation: Nullable(Type.Record(Type.String(), Type.Unknown())),
    default_format: NullableString,
    default_value: CustomFieldValue,
    created_at: DateTime,
    updated_at: DateTime,
  }),
  relationships: Type.Object({ options: ToMany('custom_field_option') }),
  links: Type.Optional(SelfLink),
});
export type CustomFieldDefinitionResource = Static<typeof CustomFieldDefinitionResource>;

export const CustomFieldOptionResource = Type.Object({
  id: Uuid,
  type: Type.Literal('custom_field_option'),
  attributes: Type.Object({
    label: Type.String(),
    value: Type.String(),
    position: Nullable(Type.Integer()),
    created_at: DateTime,
    updated_at: DateTime,
  }),
  relationships: Type.Optional(
    Type.Object({
      definition: Type.Object({ data: ResourceIdentifier('custom_field_definition') }),
    }),
  ),
  links: Type.Optional(SelfLink),
});
export type CustomFieldOptionResource = Static<typeof CustomFieldOptionResource>;

export const CustomFieldResource = Type.Object({
  id: Uuid,
  type: Type.Literal('custom_field'),
  attributes: Type.Object({
    api_slug: Type.String(),
    display_name: Type.Optional(Type.String()),
    data_type: Type.Optional(literals(CUSTOM_FIELD_DATA_TYPES)),
    value: CustomFieldValue,
    display_value: NullableString,
    created_at: Type.Optional(DateTime),
    updated_at: Type.Optional(DateTime),
  }),
  relationships: Type.Object({
    entity: Type.Object({
      data: ResourceIdentifier('shipment', 'container', 'tracking_request'),
    }),
    definition: Type.Object({ data: ResourceIdentifier('custom_field_definition') }),
  }),
  links: Type.Optional(SelfLink),
});
export type CustomFieldResource = Static<typeof CustomFieldResource>;

/** What a party does for the account beyond being a customer (a Quayside extension). */
export const PARTY_ROLES = ['trucker'] as const;

const partyExtension = { 'x-quayside-extension': true } as const;

/** One person to reach at a party; at least a name, an email or a phone. */
export const PartyContact = Type.Object(
  {
    name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    email: Type.Optional(Nullable(Type.String({ maxLength: 254 }))),
    phone: Type.Optional(Nullable(Type.String({ maxLength: 50 }))),
  },
  { additionalProperties: false },
);
export type PartyContact = Static<typeof PartyContact>;

export const PartyResource = Type.Object({
  id: Uuid,
  type: Type.Literal('party'),
  attributes: Type.Object({
    company_name: Type.String(),
    roles: Type.Optional(
      Type.Array(Type.String(), {
        ...partyExtension,
        description: 'What the party does for the account: `trucker` (a dray carrier).',
      }),
    ),
    scac: Type.Optional(
      Nullable(Type.String({ ...partyExtension, description: "A trucker's SCAC code." })),
    ),
    contacts: Type.Optional(Type.Array(PartyContact, partyExtension)),
    created_at: Type.Optional(DateTime),
    updated_at: Type.Optional(DateTime),
  }),
  links: Type.Optional(SelfLink),
});
export type PartyResource = Static<typeof PartyResource>;

export const CustomFieldDefinitionDocument = SingleDocument(
  CustomFieldDefinitionResource,
  CustomFieldOptionResource,
);
export const CustomFieldDefinitionListDocument = ListDocument(
  CustomFieldDefinitionResource,
  CustomFieldOptionResource,
);
export const CustomFieldOptionDocument = SingleDocument(CustomFieldOptionResource);
export const CustomFieldOptionListDocument = ListDocument(CustomFieldOptionResource);
export const CustomFieldDocument = SingleDocument(CustomFieldResource);
export const CustomFieldListDocument = ListDocument(CustomFieldResource);
export const PartyDocument = SingleDocument(PartyResource);
export const PartyListDocument = ListDocument(PartyResource);

// --- request bodies ----------------------------------------------------------------------------

export const CustomFieldDefinitionCreateBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('custom_field_definition'),
    attributes: Type.Object({
      entity_type: literals(CUSTOM_FIELD_ENTITY_TYPES),
      api_slug: Type.String({ maxLength: 63 }),
      display_name: Type.String({ maxLength: 200 }),
      description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
      data_type: literals(CUSTOM_FIELD_DATA_TYPES),
      reference_type: Type.Optional(NullableString),
      validation: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
      default_format: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
      default_value: Type.Optional(CustomFieldValue),
    }),
  }),
});
export type CustomFieldDefinitionCreateBody = Static<typeof CustomFieldDefinitionCreateBody>;

export const CustomFieldDefinitionUpdateBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('custom_field_definition'),
    id: Type.Optional(Type.String()),
    attributes: Type.Object({
      display_name: Type.Optional(Type.String({ maxLength: 200 })),
      description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
      validation: Type.Optional(Nullable(Type.Record(Type.String(), Type.Unknown()))),
      default_format: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
      default_value: Type.Optional(CustomFieldValue),
    }),
  }),
});
export type CustomFieldDefinitionUpdateBody = Static<typeof CustomFieldDefinitionUpdateBody>;

export const CustomFieldOptionCreateBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('custom_field_option'),
    attributes: Type.Object({
      label: Type.String({ maxLength: 200 }),
      value: Type.String({ maxLength: 200 }),
      position: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
    }),
  }),
});
export type CustomFieldOptionCreateBody = Static<typeof CustomFieldOptionCreateBody>;

export const CustomFieldOptionUpdateBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('custom_field_option'),
    id: Type.Optional(Type.String()),
    attributes: Type.Object({
      label: Type.Optional(Type.String({ maxLength: 200 })),
      position: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 1_000_000 }))),
    }),
  }),
});
export type CustomFieldOptionUpdateBody = Static<typeof CustomFieldOptionUpdateBody>;

/** POST /{records}/{id}/custom_fields. */
export const CustomFieldCreateBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('custom_field'),
    attributes: Type.Object({ api_slug: Type.String(), value: CustomFieldValue }),
  }),
});
export type CustomFieldCreateBody = Static<typeof CustomFieldCreateBody>;

/** POST /custom_fields: the record is named in `relationships.entity`. */
export const CustomFieldCreateWithEntityBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('custom_field'),
    attributes: Type.Object({ api_slug: Type.String(), value: CustomFieldValue }),
    relationships: Type.Object({
      entity: Type.Object({
        data: Type.Object({
          type: literals(['shipment', 'container', 'tracking_request']),
          id: Type.String(),
        }),
      }),
    }),
  }),
});
export type CustomFieldCreateWithEntityBody = Static<typeof CustomFieldCreateWithEntityBody>;

export const CustomFieldUpdateBody = Type.Object({
  data: Type.Object({
    type: Type.Literal('custom_field'),
    id: Type.Optional(Type.String()),
    attributes: Type.Object({ value: CustomFieldValue }),
  }),
});
export type CustomFieldUpdateBody = Static<typeof CustomFieldUpdateBody>;

export const PartyBody = Type.Object({
  data: Type.Object({
    type: Type.Optional(Type.Literal('party')),
    id: Type.Optional(Type.String()),
    attributes: Type.Object({
      company_name: Type.Optional(Type.String({ maxLength: 200 })),
      roles: Type.Optional(
        Type.Array(literals(PARTY_ROLES), { maxItems: PARTY_ROLES.length, ...partyExtension }),
      ),
      scac: Type.Optional(Nullable(Type.String({ maxLength: 10, ...partyExtension }))),
      contacts: Type.Optional(Type.Array(PartyContact, { maxItems: 10, ...partyExtension })),
    }),
  }),
});
export type PartyBody = Static<typeof PartyBody>;
