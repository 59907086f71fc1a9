import { describe, expect, it } from 'vitest';
import {
  MAX_SAVED_VIEWS,
  mergeSavedViews,
  parseSavedViewsFile,
  savedViewsFile,
  type SavedView,
} from '../../src/shared/saved-views';

const view = (name: string, search = ''): SavedView => ({
  name,
  filters: {
    view: null,
    search,
    status: '',
    line: 'MSCU',
    pod: '',
    terminal: '',
    lfd: 'by_tomorrow',
    holds: 'yes',
    ready: 'any',
  },
  sort: { column: 'lfd', direction: 'asc' },
  columns: { customer: true, vessel: false },
});

describe('saved views as a shared file', () => {
  it('round-trips through the file a team shares', () => {
    const views = [view('Holds due tomorrow'), view('Acme', 'acme')];
    expect(parseSavedViewsFile(savedViewsFile(views))).toEqual({ ok: true, views });
  });

  it('refuses anything but a valid views file, saying why', () => {
    expect(parseSavedViewsFile('not json')).toEqual({
      ok: false,
      message: 'The file is not JSON.',
    });
    expect(parseSavedViewsFile('{"views": []}')).toMatchObject({
      ok: false,
      message: 'The file is not a Quayside saved-views file.',
    });
    const bad = savedViewsFile([view('x')]).replace('"by_tomorrow"', '"sometime"');
    expect(parseSavedViewsFile(bad)).toMatchObject({ ok: false });
    const injected = JSON.stringify({
      format: 'quayside-saved-views',
      version: 1,
      views: [{ ...view('x'), sql: 'DROP TABLE containers' }],
    });
    expect(parseSavedViewsFile(injected).ok).toBe(false);
    expect(parseSavedViewsFile('x'.repeat(300_000)).ok).toBe(false);
  });

  it('replaces a view of the same name on import and keeps within the limit', () => {
    const merged = mergeSavedViews([view('Acme', 'old')], [view('acme', 'new'), view('Other')]);
    expect(merged.map((v) => [v.name, v.filters.search])).toEqual([
      ['acme', 'new'],
      ['Other', ''],
    ]);
    const many = Array.from({ length: 80 }, (_, i) => view(`v${i}`));
    expect(mergeSavedViews([], many)).toHaveLength(MAX_SAVED_VIEWS);
  });
});
