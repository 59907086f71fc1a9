import { useCallback, useState } from 'react';
import type { CustomFieldEntry } from '../../shared/bridge';
import { quayside } from '../bridge';
import { describeFailure, useBridgeValue } from '../hooks/use-bridge';
import { useAsync } from '../hooks/use-async';

/** True while the sync reports the service unreachable: edits and refreshes need it. */
export function useOffline(): boolean {
  const load = useCallback(() => quayside.getSyncStatus(), []);
  return useBridgeValue(load, 'syncStatus').value?.state === 'offline';
}

/** A form value for an entry: text for inputs, lists for enum_multi. */
export function draftOf(field: CustomFieldEntry): string | string[] {
  if (field.dataType === 'enum_multi') return Array.isArray(field.value) ? field.value : [];
  if (field.value === null || field.value === undefined) return '';
  if (field.dataType === 'datetime') return String(field.value).slice(0, 16);
  return String(field.value);
}

/** The value to send for a form value; null clears the field. Throws a message when invalid. */
export function valueOf(field: CustomFieldEntry, draft: string | string[]): unknown {
  if (Array.isArray(draft)) return draft.length ? draft : null;
  const text = draft.trim();
  if (!text) return null;
  switch (field.dataType) {
    case 'number': {
      const n = Number(text);
      if (!Number.isFinite(n)) throw new Error(`${field.displayName} must be a number.`);
      return n;
    }
    case 'boolean':
      return text === 'true';
    case 'datetime': {
      const ms = Date.parse(text);
      if (Number.isNaN(ms)) throw new Error(`${field.displayName} must be a date and time.`);
      return new Date(ms).toISOString();
    }
    default:
      return text;
  }
}

/** The input of one field, by its type. */
export function FieldInput({
  field,
  draft,
  onChange,
  disabled,
}: {
  field: CustomFieldEntry;
  draft: string | string[];
  onChange: (draft: string | string[]) => void;
  disabled: boolean;
}) {
  const id = `custom-field-${field.apiSlug}`;
  const common = { id, disabled, 'aria-label': field.displayName };
  switch (field.dataType) {
    case 'enum':
      return (
        <select {...common} value={draft as string} onChange={(e) => onChange(e.target.value)}>
          <option value="">—</option>
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'enum_multi':
      return (
        <select
          {...common}
          multiple
          value={draft as string[]}
          onChange={(e) => onChange([...e.target.selectedOptions].map((o) => o.value))}
        >
          {field.options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      );
    case 'boolean':
      return (
        <select {...common} value={draft as string} onChange={(e) => onChange(e.target.value)}>
          <option value="">—</option>
          <option value="true">Yes</option>
          <option value="false">No</option>
        </select>
      );
    default: {
      const type =
        field.dataType === 'number'
          ? 'number'
          : field.dataType === 'date'
            ? 'date'
            : field.dataType === 'datetime'
              ? 'datetime-local'
              : 'text';
      return (
        <input
          {...common}
          type={type}
          value={draft as string}
          onChange={(e) => onChange(e.target.value)}
        />
      );
    }
  }
}

/**
 * The custom fields of a container or shipment, read from and saved to the service. While the
 * service cannot be reached they are read from the cache, read-only, and say why; nothing is
 * queued.
 */
export function CustomFieldsPanel({
  entityType,
  id,
}: {
  entityType: 'container' | 'shipment';
  id: string;
}) {
  const [version, setVersion] = useState(0);
  const offline = useOffline();
  const fields = useAsync(
    () => quayside.listCustomFields({ entityType, id }),
    `${entityType}-${id}`,
    version,
  );
  const [drafts, setDrafts] = useState<Record<string, string | string[]>>({});
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [saving, setSaving] = useState<string | null>(null);

  const save = async (field: CustomFieldEntry) => {
    const draft = drafts[field.apiSlug] ?? draftOf(field);
    let value: unknown;
    try {
      value = valueOf(field, draft);
    } catch (error) {
      setMessage({ text: (error as Error).message, error: true });
      return;
    }
    setSaving(field.apiSlug);
    try {
      const outcome = await quayside.setCustomField({
        entityType,
        id,
        apiSlug: field.apiSlug,
        value: value as string | number | boolean | string[] | null,
      });
      if (outcome.ok) {
        setMessage({ text: `${field.displayName} saved.`, error: false });
        setDrafts((d) => {
          const next = { ...d };
          delete next[field.apiSlug];
          return next;
        });
        setVersion((v) => v + 1);
      } else {
        setMessage({ text: outcome.message, error: true });
      }
    } catch (failure) {
      setMessage({ text: describeFailure(failure), error: true });
    } finally {
      setSaving(null);
    }
  };

  const result = fields.value;
  return (
    <section aria-labelledby="custom-fields-heading" className="panel">
      <h3 id="custom-fields-heading">Custom fields</h3>
      {offline ? (
        <p className="muted" role="note">
          Offline: shown as of the last sync; they can be changed when the tracking service is
          reachable again.
        </p>
      ) : null}
      {fields.error ? <p className="error">{fields.error}</p> : null}
      {result && !result.ok ? <p className="muted">{result.message}</p> : null}
      {result?.ok && result.fields.length === 0 ? (
        <p className="muted">No custom fields are defined for {entityType}s.</p>
      ) : null}
      {result?.ok && result.fields.length > 0 ? (
        <dl className="facts">
          {result.fields.map((field) => {
            const draft = drafts[field.apiSlug] ?? draftOf(field);
            return (
              <div key={field.apiSlug} className="custom-field">
                <dt>
                  <label htmlFor={`custom-field-${field.apiSlug}`}>{field.displayName}</label>
                </dt>
                <dd>
                  <FieldInput
                    field={field}
                    draft={draft}
                    disabled={offline || saving !== null}
                    onChange={(next) => setDrafts((d) => ({ ...d, [field.apiSlug]: next }))}
                  />{' '}
                  <button
                    type="button"
                    className="secondary"
                    disabled={offline || saving !== null || drafts[field.apiSlug] === undefined}
                    onClick={() => void save(field)}
                  >
                    Save
                  </button>
                </dd>
              </div>
            );
          })}
        </dl>
      ) : null}
      {message ? (
        <p role={message.error ? 'alert' : 'status'} className={message.error ? 'error' : 'muted'}>
          {message.text}
        </p>
      ) : null}
    </section>
  );
}

/** "Refresh now": asks the service to check the container's sources; off while offline. */
export function RefreshNowButton({ containerId }: { containerId: string }) {
  const offline = useOffline();
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const refresh = async () => {
    setBusy(true);
    try {
      const outcome = await quayside.refreshContainer({ id: containerId });
      setMessage({ text: outcome.message, error: !outcome.ok });
    } catch (failure) {
      setMessage({ text: describeFailure(failure), error: true });
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="refresh-now">
      <button
        type="button"
        className="secondary"
        disabled={offline || busy}
        title={offline ? 'Offline: refreshing needs the tracking service' : undefined}
        onClick={() => void refresh()}
      >
        Refresh now
      </button>
      {message ? (
        <span
          role={message.error ? 'alert' : 'status'}
          className={message.error ? 'error' : 'muted'}
        >
          {' '}
          {message.text}
        </span>
      ) : null}
    </span>
  );
}
