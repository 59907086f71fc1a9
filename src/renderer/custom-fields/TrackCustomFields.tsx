/**
 * The Track form's custom fields: the account's tracking request fields, filled in before
 * tracking and set on each new request right after it is created (the service copies them to
 * the shipment it creates where the account has a shipment field of the same api_slug and type).
 */
import { useState } from 'react';
import type { CustomFieldEntry } from '../../shared/bridge';
import { quayside } from '../bridge';
import { useAsync } from '../hooks/use-async';
import { describeFailure } from '../hooks/use-bridge';
import { FieldInput, draftOf, valueOf } from './CustomFieldsPanel';

type Drafts = Record<string, string | string[]>;

export interface TrackCustomFieldsState {
  fields: CustomFieldEntry[];
  drafts: Drafts;
  setDraft(slug: string, draft: string | string[]): void;
}

/** The fields and what has been typed into them. */
export function useTrackCustomFields(): TrackCustomFieldsState {
  const listed = useAsync(() => quayside.listTrackingRequestFields(), 'track-fields');
  const [drafts, setDrafts] = useState<Drafts>({});
  return {
    fields: listed.value?.ok ? listed.value.fields : [],
    drafts,
    setDraft: (slug, draft) => setDrafts((d) => ({ ...d, [slug]: draft })),
  };
}

/** The values filled in, checked by type; a message names the first one that does not fit. */
export function trackCustomFieldValues(
  state: TrackCustomFieldsState,
): { ok: true; values: { apiSlug: string; value: unknown }[] } | { ok: false; message: string } {
  const values: { apiSlug: string; value: unknown }[] = [];
  for (const field of state.fields) {
    const draft = state.drafts[field.apiSlug];
    if (draft === undefined) continue;
    try {
      const value = valueOf(field, draft);
      if (value !== null) values.push({ apiSlug: field.apiSlug, value });
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
  }
  return { ok: true, values };
}

/** Sets the values on a new request; null when all were saved, else what went wrong. */
export async function setTrackCustomFields(
  requestId: string,
  values: readonly { apiSlug: string; value: unknown }[],
): Promise<string | null> {
  const problems: string[] = [];
  for (const { apiSlug, value } of values) {
    try {
      const outcome = await quayside.setCustomField({
        entityType: 'tracking_request',
        id: requestId,
        apiSlug,
        value: value as string | number | boolean | string[] | null,
      });
      if (!outcome.ok) problems.push(`${apiSlug}: ${outcome.message}`);
    } catch (failure) {
      problems.push(`${apiSlug}: ${describeFailure(failure)}`);
    }
  }
  return problems.length
    ? `Tracked, but custom fields were not saved (${problems.join('; ')}).`
    : null;
}

/** The inputs, one per field (nothing when the account has no tracking request fields). */
export function TrackCustomFields({
  state,
  disabled,
}: {
  state: TrackCustomFieldsState;
  disabled: boolean;
}) {
  if (state.fields.length === 0) return null;
  return (
    <fieldset aria-label="Custom fields">
      <legend>Custom fields</legend>
      {state.fields.map((field) => (
        <label key={field.apiSlug} htmlFor={`custom-field-${field.apiSlug}`}>
          {field.displayName}
          <FieldInput
            field={field}
            draft={state.drafts[field.apiSlug] ?? draftOf(field)}
            disabled={disabled}
            onChange={(draft) => state.setDraft(field.apiSlug, draft)}
          />
        </label>
      ))}
    </fieldset>
  );
}
