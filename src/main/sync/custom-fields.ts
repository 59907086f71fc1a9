/**
 * The custom-fields step of a sync run: the definitions (with enum options) once per run, read
 * again at once when a synced value names one the cache does not have. Each record's values come
 * with the record itself (records.ts asks for `include=custom_fields`). A service without custom
 * fields (404/403/400 on the definitions) is asked again after a day.
 */
import { isoString } from '../../shared/clock';
import { V2Error } from './client';
import { checkRecords, type TypeMap } from './validate';
import type { CustomFieldDefinitionRecord, CustomFieldValueRecord } from '../cache/custom-fields';
import { HOUR, idsOf, reportSkipped, STATE, type RunState, type SyncContext } from './run-state';

/**
 * Definitions change when someone defines a field, rarely: read at most this often (real time),
 * or at once when a synced value names one the cache does not have.
 */
const DEFINITIONS_REFRESH_MS = 10 * 60_000;

/** A custom field's api_slug as the board keys its column (the service's own rule). */
const API_SLUG_RE = /^[a-z][a-z0-9_]{0,62}$/;

/** A checked value as the cache stores it, or null (reported) when its slug is unusable. */
export function customFieldValue(
  run: Pick<RunState, 'pending' | 'definitionIdsSeen'>,
  v: TypeMap['custom_field'],
): CustomFieldValueRecord | null {
  if (!API_SLUG_RE.test(v.attributes.api_slug)) {
    run.pending.push({ type: 'custom_field', id: v.id, reason: '/attributes/api_slug unusable' });
    return null;
  }
  const definition = v.relationships?.definition?.data;
  if (definition && typeof definition.id === 'string') run.definitionIdsSeen.add(definition.id);
  return {
    id: v.id,
    apiSlug: v.attributes.api_slug,
    definitionId: definition && typeof definition.id === 'string' ? definition.id : null,
    dataType: v.attributes.data_type ?? null,
    value: v.attributes.value,
    displayValue: v.attributes.display_value ?? null,
  };
}

/**
 * The account's custom field definitions (and the options of enum ones), once per run. The
 * cached list is replaced only by a complete one; a service without custom fields is
 * remembered for a day so its walks are not asked to include them.
 */
export async function syncCustomFieldDefinitions(
  ctx: SyncContext,
  run: RunState,
  { force = false }: { force?: boolean } = {},
): Promise<void> {
  const { cache } = ctx.options;
  const absentAt = cache.getState<string>(STATE.customFieldsAbsentAt);
  if (absentAt && run.startedAt - Date.parse(absentAt) < 24 * HOUR) return;
  const readAt = cache.getState<number>(STATE.customFieldDefinitionsReadAt);
  const every = ctx.options.customFieldDefinitionsEveryMs ?? DEFINITIONS_REFRESH_MS;
  if (!force && readAt !== null && Date.now() - readAt < every) {
    run.customFields = true;
    return;
  }
  run.definitionsRead = true;
  const skippedBefore = run.pending.length;
  const definitions: CustomFieldDefinitionRecord[] = [];
  try {
    for await (const page of run.client.pages(
      `custom_field_definitions?page[size]=${ctx.pageSize}`,
    )) {
      for (const d of checkRecords('custom_field_definition', page.data, run.pending)) {
        const a = d.attributes;
        if (!API_SLUG_RE.test(a.api_slug)) {
          run.pending.push({
            type: 'custom_field_definition',
            id: d.id,
            reason: '/attributes/api_slug unusable',
          });
          continue;
        }
        definitions.push({
          id: d.id,
          entityType: a.entity_type,
          apiSlug: a.api_slug,
          displayName: a.display_name,
          dataType: a.data_type,
          options: [],
          json: d,
        });
      }
    }
  } catch (error) {
    const absent =
      error instanceof V2Error &&
      (error.kind === 'not_found' ||
        error.kind === 'forbidden' ||
        (error.kind === 'http' && error.status === 400));
    if (!absent) throw error;
    cache.setState(STATE.customFieldsAbsentAt, isoString(run.startedAt));
    return;
  }
  cache.deleteState(STATE.customFieldsAbsentAt);
  run.customFields = true;
  for (const d of definitions) {
    if (!d.dataType.startsWith('enum')) continue;
    try {
      for await (const page of run.client.pages(
        `custom_field_definitions/${encodeURIComponent(d.id)}/options?page[size]=${ctx.pageSize}`,
      )) {
        for (const o of checkRecords('custom_field_option', page.data, run.pending)) {
          d.options.push({ value: o.attributes.value, label: o.attributes.label });
        }
      }
    } catch (error) {
      // Removed since the list was read: the next run's list will not have it either.
      if (!(error instanceof V2Error && error.kind === 'not_found')) throw error;
    }
  }
  // Each definition stands alone: a skipped one keeps its cached copy, the others are stored.
  const skippedIds = idsOf(run.pending.slice(skippedBefore), 'custom_field_definition');
  const listed = new Set(definitions.map((d) => d.id));
  const kept = cache
    .customFieldDefinitions()
    .filter((d) => skippedIds.has(d.id) && !listed.has(d.id));
  const complete = run.pending.length === skippedBefore;
  reportSkipped(ctx, run);
  cache.replaceCustomFieldDefinitions([...definitions, ...kept]);
  // An incomplete list is read again on the next run rather than after the usual interval.
  if (complete) cache.setState(STATE.customFieldDefinitionsReadAt, Date.now());
}

/** Whether a value synced this run names a definition the cache does not have. */
export function namesUnknownDefinition(ctx: SyncContext, run: RunState): boolean {
  if (run.definitionIdsSeen.size === 0) return false;
  const known = new Set(ctx.options.cache.customFieldDefinitions().map((d) => d.id));
  return [...run.definitionIdsSeen].some((id) => !known.has(id));
}
