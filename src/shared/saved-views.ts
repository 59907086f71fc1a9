/**
 * Saved board views: a filter, sort and column set under a name, shown beside the built-in
 * views, kept in the app's settings (so they survive restarts in both shells) and shared as a
 * small JSON file. The schema checks every view that comes in: from settings, or from a file.
 * No Node imports: the renderer bundles this file.
 */
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import { BOARD_VIEWS, BoardSortColumn, LFD_DUE_FILTERS } from './desktop';

const literals = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>(Type.Union(values.map((value) => Type.Literal(value))));
const Choice = Type.String({ maxLength: 64 });

export const SavedViewFilters = Type.Object(
  {
    view: Type.Union([literals(BOARD_VIEWS), Type.Null()]),
    search: Type.String({ maxLength: 200 }),
    status: Choice,
    line: Choice,
    pod: Choice,
    terminal: Choice,
    /** A customer's name; absent in older files. */
    customer: Type.Optional(Type.String({ maxLength: 200 })),
    /** A trucker's party id, `none` for boxes without one; absent in older files. */
    trucker: Type.Optional(Choice),
    lfd: Type.Union([Type.Literal('any'), literals(LFD_DUE_FILTERS)]),
    holds: Type.Union([Type.Literal('any'), Type.Literal('yes'), Type.Literal('no')]),
    ready: Type.Union([Type.Literal('any'), Type.Literal('yes'), Type.Literal('no')]),
    showCompleted: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const SavedView = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 60 }),
    filters: SavedViewFilters,
    sort: Type.Object(
      {
        column: BoardSortColumn,
        direction: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
      },
      { additionalProperties: false },
    ),
    /** Column id -> shown; columns not listed keep the default. */
    /** Column id -> shown (custom field columns are `cf:<api_slug>`); others keep the default. */
    columns: Type.Record(
      Type.String({ pattern: '^([A-Za-z]{1,40}|cf:[a-z][a-z0-9_]{0,62})$' }),
      Type.Boolean(),
    ),
  },
  { additionalProperties: false },
);

export const MAX_SAVED_VIEWS = 50;
export const SavedViews = Type.Array(SavedView, { maxItems: MAX_SAVED_VIEWS });

export type SavedViewFilters = Static<typeof SavedViewFilters>;
export type SavedView = Static<typeof SavedView>;

/** The file a team shares: a format marker, a version and the views. */
export const SAVED_VIEWS_FORMAT = 'quayside-saved-views';

export function savedViewsFile(views: readonly SavedView[]): string {
  return `${JSON.stringify({ format: SAVED_VIEWS_FORMAT, version: 1, views }, null, 2)}\n`;
}

export type SavedViewsImport = { ok: true; views: SavedView[] } | { ok: false; message: string };

/** Reads a shared file; anything but a valid views file is refused with a reason. */
export function parseSavedViewsFile(text: string): SavedViewsImport {
  if (text.length > 256_000)
    return { ok: false, message: 'The file is too large for saved views.' };
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch {
    return { ok: false, message: 'The file is not JSON.' };
  }
  const doc = document as { format?: unknown; version?: unknown; views?: unknown } | null;
  if (!doc || typeof doc !== 'object' || doc.format !== SAVED_VIEWS_FORMAT)
    return { ok: false, message: 'The file is not a Quayside saved-views file.' };
  if (doc.version !== 1) return { ok: false, message: 'The file was written by a newer version.' };
  if (!Value.Check(SavedViews, doc.views)) {
    const first = Value.Errors(SavedViews, doc.views)[0];
    return {
      ok: false,
      message: `A view in the file is not valid${first ? ` (${first.instancePath || 'views'}: ${first.message})` : ''}.`,
    };
  }
  return { ok: true, views: doc.views };
}

/** Adds views, a view of the same name replacing the old one, within the limit. */
export function mergeSavedViews(current: readonly SavedView[], added: readonly SavedView[]) {
  const byName = new Map(current.map((view) => [view.name.toLowerCase(), view]));
  for (const view of added) byName.set(view.name.toLowerCase(), view);
  return [...byName.values()].slice(0, MAX_SAVED_VIEWS);
}
