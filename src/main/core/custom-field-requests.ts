/**
 * Custom fields and container refreshes: calls the detail views make to the tracking service
 * directly. Edits need the service; while it cannot be reached they are refused in plain words,
 * never queued and never lost silently.
 */
import type { CustomFieldEntry, CustomFieldsResult } from '../../shared/bridge';
import type { CustomFieldDefinitionRecord } from '../cache/custom-fields';
import { call } from './service-requests';
import type { ServiceBudgets, ServiceConnection } from '../connection/service-connection';

export const OFFLINE_EDIT_MESSAGE =
  'The tracking service cannot be reached, so the change was not saved. Try again when the app is back online.';

interface Resource {
  id: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, { data: unknown }>;
}
interface ErrorBody {
  errors?: { detail?: string }[];
}

const DEFINITION_TYPE = {
  container: 'Container',
  shipment: 'Shipment',
  tracking_request: 'TrackingRequest',
} as const;
type EntityType = keyof typeof DEFINITION_TYPE;

/** A failure; `unreachable` when no answer came (a read can then fall back to the cache). */
type Failure = { ok: false; message: string; unreachable?: true };

function failure(status: number, json: unknown, what: string): Failure {
  const detail = (json as ErrorBody | null)?.errors?.[0]?.detail;
  if (status === 0) return { ok: false, message: OFFLINE_EDIT_MESSAGE, unreachable: true };
  if (status === 401) return { ok: false, message: 'The tracking service refused the API key.' };
  if (status === 404) return { ok: false, message: `The service no longer has this ${what}.` };
  return { ok: false, message: detail ?? `The tracking service answered HTTP ${status}.` };
}

function entryOf(
  def: Resource,
  options: Map<string, { value: string; label: string }[]>,
  value: Resource | undefined,
): CustomFieldEntry {
  const a = def.attributes;
  return {
    apiSlug: String(a.api_slug),
    displayName: String(a.display_name),
    dataType: String(a.data_type),
    options: options.get(def.id) ?? [],
    value: value ? (value.attributes.value ?? null) : null,
    displayValue: value ? ((value.attributes.display_value as string | null) ?? null) : null,
  };
}

/** Every definition for a type of record, with the options of enum ones. */
async function definitionsOf(
  connection: ServiceConnection,
  entityType: EntityType,
  budgets: ServiceBudgets | undefined,
): Promise<
  | { ok: true; definitions: Resource[]; options: Map<string, { value: string; label: string }[]> }
  | Failure
> {
  const defs = await call(
    connection,
    budgets,
    'GET',
    `custom_field_definitions?filter[entity_type]=${DEFINITION_TYPE[entityType]}&page[size]=100`,
  );
  if (defs.status !== 200) return failure(defs.status, defs.json, 'record');
  const definitions = (defs.json as { data: Resource[] }).data;
  // Options come with each definition's own document.
  const options = new Map<string, { value: string; label: string }[]>();
  for (const def of definitions) {
    if (!String(def.attributes.data_type).startsWith('enum')) continue;
    const opts = await call(
      connection,
      budgets,
      'GET',
      `custom_field_definitions/${def.id}/options?page[size]=100`,
    );
    if (opts.status !== 200) return failure(opts.status, opts.json, 'field');
    options.set(
      def.id,
      (opts.json as { data: Resource[] }).data.map((o) => ({
        value: String(o.attributes.value),
        label: String(o.attributes.label),
      })),
    );
  }
  return { ok: true, definitions, options };
}

/** Every definition for the record's type (with options) and the record's values. */
export async function listCustomFields(
  connection: ServiceConnection | null,
  target: { entityType: EntityType; id: string },
  budgets?: ServiceBudgets,
): Promise<CustomFieldsResult | Failure> {
  if (!connection) return { ok: false, message: 'No tracking service is connected.' };
  const defs = await definitionsOf(connection, target.entityType, budgets);
  if (!defs.ok) return defs;
  const values = await call(
    connection,
    budgets,
    'GET',
    `${target.entityType}s/${encodeURIComponent(target.id)}/custom_fields?page[size]=100`,
  );
  if (values.status !== 200) return failure(values.status, values.json, target.entityType);
  const { definitions, options } = defs;
  const bySlug = new Map(
    (values.json as { data: Resource[] }).data.map((v) => [String(v.attributes.api_slug), v]),
  );
  return {
    ok: true,
    fields: definitions.map((def) =>
      entryOf(def, options, bySlug.get(String(def.attributes.api_slug))),
    ),
  };
}

/** The fields a tracking request can carry (the Track form's), without values. */
export async function listTrackingRequestFields(
  connection: ServiceConnection | null,
  budgets?: ServiceBudgets,
): Promise<CustomFieldsResult | Failure> {
  if (!connection) return { ok: false, message: 'No tracking service is connected.' };
  const defs = await definitionsOf(connection, 'tracking_request', budgets);
  if (!defs.ok) return defs;
  return {
    ok: true,
    fields: defs.definitions.map((def) => entryOf(def, defs.options, undefined)),
  };
}

/** Sets or (with null) clears one value; the service checks it against the field's type. */
export async function setCustomField(
  connection: ServiceConnection | null,
  target: { entityType: EntityType; id: string; apiSlug: string; value: unknown },
  budgets?: ServiceBudgets,
): Promise<{ ok: true; field: CustomFieldEntry | null } | { ok: false; message: string }> {
  if (!connection) return { ok: false, message: OFFLINE_EDIT_MESSAGE };
  const path = `${target.entityType}s/${encodeURIComponent(target.id)}/custom_fields/${target.apiSlug}`;
  if (target.value === null) {
    const removed = await call(connection, budgets, 'DELETE', path);
    // Not set in the first place is as good as removed.
    if (removed.status === 204 || removed.status === 404) return { ok: true, field: null };
    return failure(removed.status, removed.json, target.entityType);
  }
  const { status, json } = await call(connection, budgets, 'PATCH', path, {
    data: { type: 'custom_field', attributes: { value: target.value } },
  });
  if (status !== 200) return failure(status, json, target.entityType);
  const a = (json as { data: Resource }).data.attributes;
  return {
    ok: true,
    field: {
      apiSlug: String(a.api_slug),
      displayName: String(a.display_name ?? a.api_slug),
      dataType: String(a.data_type ?? ''),
      options: [],
      value: a.value ?? null,
      displayValue: (a.display_value as string | null) ?? null,
    },
  };
}

/** Asks the service to look the container up now; its limit (10 a minute) is said plainly. */
export async function refreshContainer(
  connection: ServiceConnection | null,
  id: string,
  budgets?: ServiceBudgets,
): Promise<{ ok: boolean; message: string }> {
  if (!connection) return { ok: false, message: 'No tracking service is connected.' };
  const { status, json } = await call(
    connection,
    budgets,
    'PATCH',
    `containers/${encodeURIComponent(id)}/refresh`,
  );
  if (status === 200) {
    const message = (json as { message?: string } | null)?.message ?? 'Refresh started';
    return { ok: true, message: `${message}. Changes appear after the next sync.` };
  }
  if (status === 0) {
    return {
      ok: false,
      message: 'The tracking service cannot be reached; refresh needs a connection.',
    };
  }
  if (status === 429) {
    return {
      ok: false,
      message:
        'The service allows 10 refreshes a minute and they are used up. Try again in a minute.',
    };
  }
  return failure(status, json, 'container');
}

/**
 * A record's fields as the last sync left them in the cache: what the detail shows, read-only,
 * while the service cannot be reached. Tracking requests' values are not cached (their fields
 * come without values, as on the Track form).
 */
export function cachedCustomFields(
  definitions: readonly CustomFieldDefinitionRecord[],
  values: Record<string, unknown>,
  entityType: EntityType,
): CustomFieldEntry[] {
  return definitions
    .filter((def) => def.entityType === DEFINITION_TYPE[entityType])
    .map((def) => {
      const value = values[def.apiSlug] ?? null;
      const label = (v: unknown) => def.options.find((o) => o.value === v)?.label ?? String(v);
      return {
        apiSlug: def.apiSlug,
        displayName: def.displayName,
        dataType: def.dataType,
        options: def.options,
        value,
        displayValue:
          value === null ? null : Array.isArray(value) ? value.map(label).join(', ') : label(value),
      };
    })
    .sort((a, b) => a.displayName.localeCompare(b.displayName));
}
