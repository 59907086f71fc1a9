/**
 * What a custom field value may be for its definition's data type, how it is stored, how it is
 * shown (`display_value`) and the text the list filters compare with.
 */
import type { CustomFieldEntityType } from '../store/custom-fields';

export const DATA_TYPES = [
  'short_text',
  'number',
  'date',
  'datetime',
  'boolean',
  'enum',
  'enum_multi',
  'reference',
] as const;
export type DataType = (typeof DATA_TYPES)[number];

/** Definition `entity_type` (the reference's class names) and the value's `entity` type. */
export const ENTITY_TYPES = {
  Shipment: 'shipment',
  Container: 'container',
  TrackingRequest: 'tracking_request',
} as const satisfies Record<string, CustomFieldEntityType>;
export type DefinitionEntityType = keyof typeof ENTITY_TYPES;

export const definitionEntityType = (type: CustomFieldEntityType): DefinitionEntityType =>
  (Object.keys(ENTITY_TYPES) as DefinitionEntityType[]).find((k) => ENTITY_TYPES[k] === type)!;

/** The reference types a `reference` definition may point at. */
export const REFERENCE_TYPES = ['party'] as const;

export const API_SLUG_RE = /^[a-z][a-z0-9_]{0,62}$/;
export const MAX_TEXT_LENGTH = 1000;
export const MAX_CHOICES = 100;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;

/** Separates choices in the match text; refused inside option values. */
const UNIT = '\u001f';

/** The definition fields that decide what a value may be. */
export interface ValueRule {
  data_type: string;
  /** Option values of enum types. */
  options: string[];
  /** `validation` as stored: `{ min, max }` for numbers, `{ max_length }` for text. */
  validation: Record<string, unknown> | null;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; detail: string };

const fail = (detail: string) => ({ ok: false, detail }) as const;

function isRealDate(year: number, month: number, day: number): boolean {
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCFullYear() === year && d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** Checks `value` against the rule; the value to store (datetimes in UTC) or why not. */
export function checkValue(rule: ValueRule, value: unknown): Checked<unknown> {
  if (value === null || value === undefined) return fail("value can't be blank");
  const limits = rule.validation ?? {};
  switch (rule.data_type as DataType) {
    case 'short_text': {
      if (typeof value !== 'string') return fail('value must be a string');
      const max =
        typeof limits.max_length === 'number'
          ? Math.min(limits.max_length, MAX_TEXT_LENGTH)
          : MAX_TEXT_LENGTH;
      if (value.length > max) return fail(`value must be at most ${max} characters`);
      if (!value.trim()) return fail("value can't be blank");
      return { ok: true, value };
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return fail('value must be a number');
      }
      if (typeof limits.min === 'number' && value < limits.min) {
        return fail(`value must be at least ${limits.min}`);
      }
      if (typeof limits.max === 'number' && value > limits.max) {
        return fail(`value must be at most ${limits.max}`);
      }
      return { ok: true, value };
    }
    case 'date': {
      const m = typeof value === 'string' ? DATE_RE.exec(value) : null;
      if (!m || !isRealDate(Number(m[1]), Number(m[2]), Number(m[3]))) {
        return fail('value must be a date (YYYY-MM-DD)');
      }
      return { ok: true, value };
    }
    case 'datetime': {
      const ms = typeof value === 'string' && DATETIME_RE.test(value) ? Date.parse(value) : NaN;
      if (Number.isNaN(ms)) {
        return fail('value must be an ISO 8601 date-time with a zone (e.g. 2026-05-01T09:30:00Z)');
      }
      return { ok: true, value: new Date(ms).toISOString() };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : fail('value must be true or false');
    case 'enum': {
      if (typeof value !== 'string') return fail('value must be one of the options (a string)');
      if (!rule.options.includes(value)) return fail(unknownOption(value, rule.options));
      return { ok: true, value };
    }
    case 'enum_multi': {
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) {
        return fail('value must be a list of option values');
      }
      const unknown = (value as string[]).find((v) => !rule.options.includes(v));
      if (unknown !== undefined) return fail(unknownOption(unknown, rule.options));
      if (value.length > MAX_CHOICES) return fail(`value may hold at most ${MAX_CHOICES} options`);
      return { ok: true, value: [...new Set(value as string[])] };
    }
    case 'reference': {
      if (typeof value !== 'string' || !value) return fail('value must be the id of a party');
      return { ok: true, value };
    }
    default:
      return fail(`data type ${rule.data_type} takes no values`);
  }
}

function unknownOption(value: string, options: string[]): string {
  const list = options.length ? options.map((o) => `'${o}'`).join(', ') : 'none defined yet';
  return `'${value}' is not an option of this field (options: ${list})`;
}

/** Whether an option value can be stored and matched (no control characters). */
export const isStorableOptionValue = (value: string): boolean =>
  value.trim().length > 0 && value.length <= 200 && !/\p{Cc}/u.test(value);

/** The text list filters compare with: each choice lower-cased, framed by separators. */
export function matchText(value: unknown): string {
  const items = Array.isArray(value) ? (value as unknown[]) : [value];
  return `${UNIT}${items.map((v) => String(v).toLowerCase()).join(UNIT)}${UNIT}`;
}

/** A LIKE pattern finding `wanted` as one whole choice in a match text (escape `\`). */
export function matchPattern(wanted: string): string {
  const escaped = wanted.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);
  return `%${UNIT}${escaped}${UNIT}%`;
}

/** `display_value`: the value as people read it (option labels, Yes/No, party names). */
export function displayValue(
  dataType: string,
  value: unknown,
  labels: Map<string, string>,
): string | null {
  if (value === null || value === undefined) return null;
  switch (dataType as DataType) {
    case 'boolean':
      return value ? 'Yes' : 'No';
    case 'enum':
    case 'reference':
      return labels.get(String(value)) ?? String(value);
    case 'enum_multi':
      return (value as string[]).map((v) => labels.get(v) ?? v).join(', ');
    default:
      return String(value);
  }
}
