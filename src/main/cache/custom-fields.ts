/**
 * Custom fields in the cache: the records the sync hands over (definitions with their options,
 * and each shipment's or container's complete set of values) and the columns a value is stored
 * with, so the board can sort, search and filter in SQL.
 */
import { normIso } from './projection';

/** One definition as the service lists it, with its options (enum fields). */
export interface CustomFieldDefinitionRecord {
  id: string;
  entityType: string;
  apiSlug: string;
  displayName: string;
  dataType: string;
  options: { value: string; label: string }[];
  /** The resource as the service sent it. */
  json: unknown;
}

/** One value as the service sent it (`include=custom_fields`). */
export interface CustomFieldValueRecord {
  id: string;
  apiSlug: string;
  definitionId: string | null;
  /** Null when the service does not say (the definition's then decides). */
  dataType: string | null;
  value: unknown;
  displayValue: string | null;
}

/** Every value one record has: what the cache holds for it is replaced by exactly these. */
export interface CustomFieldValueSet {
  entityType: 'shipment' | 'container';
  entityId: string;
  values: readonly CustomFieldValueRecord[];
}

export interface CustomFieldValueRow {
  id: string;
  entity_type: 'shipment' | 'container';
  entity_id: string;
  definition_id: string | null;
  api_slug: string;
  data_type: string;
  value: string;
  display_value: string;
  sort_key: number | string;
  search_text: string;
  choices: string | null;
}

/** The separator framing option values in `choices` (no option value holds it). */
export const CHOICE_SEPARATOR = '\u001f';

const frame = (values: readonly string[]) =>
  `${CHOICE_SEPARATOR}${values.join(CHOICE_SEPARATOR)}${CHOICE_SEPARATOR}`;

/** A value in words when the service sent no display value. */
function plainText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(plainText).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value as string | number);
}

/** The data type a value has when neither it nor a cached definition says. */
function guessedType(value: unknown): string {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (Array.isArray(value)) return 'enum_multi';
  return 'short_text';
}

/**
 * The stored row of one value. `sort_key` orders values of one field: numbers as numbers, dates
 * and instants as sortable ISO text, yes/no as 1/0, everything else by its shown text in lower
 * case.
 */
export function customFieldValueRow(
  entity: { entityType: 'shipment' | 'container'; entityId: string },
  v: CustomFieldValueRecord,
  definitionType: string | null,
): CustomFieldValueRow {
  const dataType = v.dataType ?? definitionType ?? guessedType(v.value);
  const shown = v.displayValue ?? plainText(v.value);
  let sortKey: number | string = shown.toLowerCase();
  let choices: string | null = null;
  if (dataType === 'number' && Number.isFinite(Number(v.value)) && v.value !== '') {
    sortKey = Number(v.value);
  } else if (dataType === 'date' && typeof v.value === 'string') {
    sortKey = v.value;
  } else if (dataType === 'datetime' && typeof v.value === 'string') {
    sortKey = normIso(v.value) ?? sortKey;
  } else if (dataType === 'boolean' && typeof v.value === 'boolean') {
    sortKey = v.value ? 1 : 0;
    choices = frame([String(v.value)]);
  } else if (dataType === 'enum' && typeof v.value === 'string') {
    choices = frame([v.value]);
  } else if (dataType === 'enum_multi' && Array.isArray(v.value)) {
    choices = frame(v.value.map((item) => plainText(item)));
  }
  return {
    id: v.id,
    entity_type: entity.entityType,
    entity_id: entity.entityId,
    definition_id: v.definitionId,
    api_slug: v.apiSlug,
    data_type: dataType,
    value: JSON.stringify(v.value ?? null),
    display_value: shown,
    sort_key: sortKey,
    search_text: shown.toLowerCase(),
    choices,
  };
}
