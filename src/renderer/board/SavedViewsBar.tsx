/**
 * Saved views beside the built-in chips: apply one, save the board's current filter, sort and
 * columns under a name, remove one, and share them as a small file (export / import). They live
 * in the app's settings, so they survive restarts in both shells.
 */
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { downloadBlob } from '../lib/download';
import {
  mergeSavedViews,
  parseSavedViewsFile,
  savedViewsFile,
  type SavedView,
} from '../../shared/saved-views';
import { countOf } from '../../shared/words';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';

interface Props {
  views: readonly SavedView[];
  /** The board as it is now, as a view without a name. */
  current: Omit<SavedView, 'name'>;
  onApply(view: SavedView): void;
}

const sameView = (a: Omit<SavedView, 'name'>, b: Omit<SavedView, 'name'>) =>
  JSON.stringify([a.filters, a.sort]) === JSON.stringify([b.filters, b.sort]);

export function SavedViewsBar({ views, current, onApply }: Props) {
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const store = async (next: SavedView[], done: string) => {
    try {
      await quayside.updateSettings({ savedViews: next });
      setMessage(done);
    } catch (failure) {
      setMessage(`Not saved: ${describeFailure(failure)}`);
    }
  };

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) return;
    await store(mergeSavedViews(views, [{ name: trimmed, ...current }]), `Saved “${trimmed}”`);
    setNaming(false);
    setName('');
  };

  const onExport = () => {
    const blob = new Blob([savedViewsFile(views)], { type: 'application/json' });
    downloadBlob(blob, 'quayside-views.json');
  };

  const onImport = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const parsed = parseSavedViewsFile(await file.text());
    if (!parsed.ok) {
      setMessage(parsed.message);
      return;
    }
    await store(
      mergeSavedViews(views, parsed.views),
      `Imported ${countOf(parsed.views.length, 'view')}`,
    );
  };

  return (
    <div className="saved-views" role="toolbar" aria-label="Saved views">
      {views.map((view) => (
        <span key={view.name} className="saved-view">
          <button
            type="button"
            className="view-chip view-chip--saved"
            aria-pressed={sameView(view, current)}
            onClick={() => onApply(view)}
          >
            {view.name}
          </button>
          <button
            type="button"
            className="link saved-view__remove"
            aria-label={`Remove saved view ${view.name}`}
            onClick={() =>
              void store(
                views.filter((v) => v !== view),
                `Removed “${view.name}”`,
              )
            }
          >
            ×
          </button>
        </span>
      ))}
      {naming ? (
        <form className="saved-views__name" onSubmit={(e) => void onSave(e)}>
          <input
            aria-label="View name"
            placeholder="View name"
            value={name}
            maxLength={60}
            autoFocus
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape') setNaming(false);
            }}
          />
          <button type="submit">Save</button>
        </form>
      ) : (
        <button type="button" className="secondary" onClick={() => setNaming(true)}>
          Save view…
        </button>
      )}
      <button type="button" className="link" onClick={onExport} disabled={views.length === 0}>
        Export views
      </button>
      <button type="button" className="link" onClick={() => fileInput.current?.click()}>
        Import views
      </button>
      <input
        ref={fileInput}
        type="file"
        accept="application/json,.json"
        hidden
        aria-label="Saved views file"
        onChange={(e) => void onImport(e)}
      />
      {message ? (
        <span role="status" className="muted small">
          {message}
        </span>
      ) : null}
    </div>
  );
}
