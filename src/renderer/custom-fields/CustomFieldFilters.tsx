/**
 * Filters on the custom field columns the board shows: options to pick for choice fields,
 * yes/no, a from-to range for numbers and dates, "contains" for text. Main applies them to a
 * container's own value, else its shipment's.
 */
import type { CustomFieldColumn, CustomFieldFilter } from '../../shared/desktop';

/** What is typed or picked per field (by api_slug); empty members filter nothing. */
export type CustomFieldFilterState = Record<string, Omit<CustomFieldFilter, 'slug'>>;

/** The bridge filters of the fields shown, leaving out empty ones. */
export function customFieldFilters(
  state: CustomFieldFilterState,
  shown: readonly CustomFieldColumn[],
): CustomFieldFilter[] {
  const out: CustomFieldFilter[] = [];
  for (const field of shown) {
    const f = state[field.slug];
    if (!f) continue;
    const filter: CustomFieldFilter = { slug: field.slug };
    if (f.anyOf && f.anyOf.length > 0) filter.anyOf = f.anyOf;
    if (f.contains?.trim()) filter.contains = f.contains.trim();
    if (f.min?.trim()) filter.min = f.min.trim();
    if (f.max?.trim()) filter.max = f.max.trim();
    if (Object.keys(filter).length > 1) out.push(filter);
  }
  return out;
}

const RANGE_INPUT: Record<string, 'number' | 'date'> = {
  number: 'number',
  date: 'date',
  datetime: 'date',
};

export function CustomFieldFilters({
  fields,
  state,
  onChange,
}: {
  fields: readonly CustomFieldColumn[];
  state: CustomFieldFilterState;
  onChange(state: CustomFieldFilterState): void;
}) {
  const set = (slug: string, change: Omit<CustomFieldFilter, 'slug'>) =>
    onChange({ ...state, [slug]: { ...state[slug], ...change } });
  return (
    <>
      {fields.map((field) => {
        const f = state[field.slug] ?? {};
        // A list of values to pick one of: the field's options, or yes/no.
        const choices =
          field.dataType === 'enum' || field.dataType === 'enum_multi'
            ? field.options.map((option) => ({ value: option.value, label: option.label }))
            : field.dataType === 'boolean'
              ? [
                  { value: 'true', label: `${field.label}: yes` },
                  { value: 'false', label: `${field.label}: no` },
                ]
              : null;
        if (choices) {
          return (
            <select
              key={field.slug}
              aria-label={`${field.label} filter`}
              value={f.anyOf?.[0] ?? ''}
              onChange={(e) => set(field.slug, { anyOf: e.target.value ? [e.target.value] : [] })}
            >
              <option value="">{field.label}: any</option>
              {choices.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {choice.label}
                </option>
              ))}
            </select>
          );
        }
        const range = RANGE_INPUT[field.dataType];
        if (range) {
          return (
            <span key={field.slug} className="inline custom-range">
              <input
                type={range}
                aria-label={`${field.label} from`}
                placeholder={`${field.label} from`}
                value={f.min ?? ''}
                onChange={(e) => set(field.slug, { min: e.target.value })}
              />
              <input
                type={range}
                aria-label={`${field.label} to`}
                placeholder="to"
                value={f.max ?? ''}
                onChange={(e) => set(field.slug, { max: e.target.value })}
              />
            </span>
          );
        }
        return (
          <input
            key={field.slug}
            type="search"
            aria-label={`${field.label} contains`}
            placeholder={`${field.label} contains…`}
            value={f.contains ?? ''}
            onChange={(e) => set(field.slug, { contains: e.target.value })}
          />
        );
      })}
    </>
  );
}
