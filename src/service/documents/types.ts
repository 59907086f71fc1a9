/**
 * The document types Quayside classifies and what extraction yields for each: the one home of
 * the `GET /documents/types` list and of `GET /document_schemas/{id}`.
 */
export const DOCUMENT_TYPES = [
  { code: 'bill_of_lading', label: 'Bill of lading' },
  { code: 'booking_confirmation', label: 'Booking confirmation' },
  { code: 'arrival_notice', label: 'Arrival notice' },
  { code: 'delivery_order', label: 'Delivery order' },
  { code: 'other', label: 'Other' },
] as const;

export type DocumentType = (typeof DOCUMENT_TYPES)[number]['code'];

export const isDocumentType = (value: string): value is DocumentType =>
  DOCUMENT_TYPES.some((t) => t.code === value);

export const SCHEMA_VERSION = '2026-11-01';

/** Every extracted value carries where it was read and how sure the reading is. */
const located = (value: Record<string, unknown>, description: string) => ({
  type: 'object',
  description,
  required: ['value', 'page', 'confidence'],
  properties: {
    value,
    page: { type: 'integer', minimum: 1, description: 'Page the value was read on.' },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
});

const FIELDS = {
  container_numbers: {
    type: 'array',
    items: located(
      { type: 'string', pattern: '^[A-Z]{3}[UJZ][0-9]{7}$' },
      'A container number whose ISO 6346 check digit is correct.',
    ),
  },
  bill_of_lading_number: located({ type: 'string' }, 'Bill of lading number.'),
  booking_number: located({ type: 'string' }, 'Booking number.'),
  carrier_scac: located(
    { type: 'string', pattern: '^[A-Z]{4}$' },
    'SCAC of the shipping line, stated in the text or inferred from a number prefix.',
  ),
  vessel_name: located({ type: 'string' }, 'Vessel name.'),
  voyage_number: located({ type: 'string' }, 'Voyage number.'),
  eta: located({ type: 'string', format: 'date' }, 'Estimated arrival at the port of discharge.'),
  last_free_day: located({ type: 'string', format: 'date' }, 'Last free day, where stated.'),
} as const;

type FieldName = keyof typeof FIELDS;

/** Fields each type is expected to yield (other fields are still reported when found). */
const YIELDS: Record<DocumentType, FieldName[]> = {
  bill_of_lading: [
    'bill_of_lading_number',
    'container_numbers',
    'carrier_scac',
    'vessel_name',
    'voyage_number',
  ],
  booking_confirmation: ['booking_number', 'carrier_scac', 'vessel_name', 'voyage_number', 'eta'],
  arrival_notice: [
    'bill_of_lading_number',
    'container_numbers',
    'carrier_scac',
    'vessel_name',
    'voyage_number',
    'eta',
    'last_free_day',
  ],
  delivery_order: ['bill_of_lading_number', 'container_numbers', 'carrier_scac', 'last_free_day'],
  other: [],
};

/** The JSON Schema of an extraction payload for a type. */
export function schemaPayload(type: DocumentType): Record<string, unknown> {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: DOCUMENT_TYPES.find((t) => t.code === type)!.label,
    type: 'object',
    properties: {
      document_type: { const: type },
      method: { enum: ['text', 'ocr'] },
      page_count: { type: 'integer' },
      fields: { type: 'object', properties: FIELDS, required: YIELDS[type] },
      rejected: {
        type: 'array',
        description: 'Numbers that look like tracking numbers but failed a check (never tracked).',
        items: {
          type: 'object',
          properties: {
            value: { type: 'string' },
            page: { type: 'integer' },
            reason: { type: 'string' },
          },
        },
      },
    },
  };
}
