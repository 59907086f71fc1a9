/**
 * Assigning a trucker: a choice of the account's truckers (as last synced, so the list shows
 * offline too), "no trucker", and a short form to add one. The board uses it for the ticked rows,
 * the container detail for one box or its whole shipment.
 */
import { useState, type FormEvent } from 'react';
import type { TruckerRecord } from '../../shared/desktop';
import { countOf } from '../../shared/words';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';

export type TruckerTarget = { containerIds: string[] } | { shipmentId: string };

const NONE = '';
const ADD = '__add__';

export function TruckerAssign({
  truckers,
  target,
  current,
  label = 'Trucker',
  onAssigned,
}: {
  truckers: readonly TruckerRecord[];
  target: TruckerTarget;
  /** The trucker assigned now (pre-selected). */
  current?: string | null;
  label?: string;
  onAssigned?: (message: string) => void;
}) {
  const [choice, setChoice] = useState<string>(current ?? NONE);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ text: string; failed: boolean } | null>(null);
  const [draft, setDraft] = useState({ companyName: '', scac: '', email: '', phone: '' });

  const assign = async (truckerId: string | null, name: string) => {
    setBusy(true);
    setMessage(null);
    try {
      const outcome = await quayside.assignTrucker({ ...target, truckerId });
      if (!outcome.ok) {
        setMessage({ text: outcome.message, failed: true });
        return;
      }
      const boxes = countOf(outcome.assigned, 'container');
      const text = truckerId ? `${name} assigned to ${boxes}.` : `Trucker removed from ${boxes}.`;
      setMessage({ text, failed: false });
      onAssigned?.(text);
    } catch (failure) {
      setMessage({ text: describeFailure(failure), failed: true });
    } finally {
      setBusy(false);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (choice !== ADD) {
      const trucker = truckers.find((t) => t.id === choice);
      await assign(trucker?.id ?? null, trucker?.companyName ?? '');
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const made = await quayside.createTrucker({
        companyName: draft.companyName,
        ...(draft.scac.trim() ? { scac: draft.scac } : {}),
        ...(draft.email.trim() ? { email: draft.email } : {}),
        ...(draft.phone.trim() ? { phone: draft.phone } : {}),
      });
      if (!made.ok) {
        setMessage({ text: made.message, failed: true });
        setBusy(false);
        return;
      }
      setChoice(made.trucker.id);
      setDraft({ companyName: '', scac: '', email: '', phone: '' });
      await assign(made.trucker.id, made.trucker.companyName);
    } catch (failure) {
      setMessage({ text: describeFailure(failure), failed: true });
      setBusy(false);
    }
  };

  return (
    <form className="trucker-assign" onSubmit={(event) => void onSubmit(event)}>
      <label className="inline">
        {label}
        <select
          aria-label={label}
          value={choice}
          disabled={busy}
          onChange={(event) => setChoice(event.target.value)}
        >
          <option value={NONE}>No trucker</option>
          {truckers.map((t) => (
            <option key={t.id} value={t.id}>
              {t.companyName}
              {t.scac ? ` (${t.scac})` : ''}
            </option>
          ))}
          <option value={ADD}>Add a trucker…</option>
        </select>
      </label>
      {choice === ADD ? (
        <fieldset className="trucker-assign__new" aria-label="New trucker">
          <input
            aria-label="Trucker name"
            placeholder="Company name"
            required
            maxLength={200}
            value={draft.companyName}
            onChange={(e) => setDraft({ ...draft, companyName: e.target.value })}
          />
          <input
            aria-label="SCAC"
            placeholder="SCAC"
            maxLength={4}
            value={draft.scac}
            onChange={(e) => setDraft({ ...draft, scac: e.target.value })}
          />
          <input
            aria-label="Dispatch email"
            placeholder="Dispatch email"
            type="email"
            maxLength={254}
            value={draft.email}
            onChange={(e) => setDraft({ ...draft, email: e.target.value })}
          />
          <input
            aria-label="Dispatch phone"
            placeholder="Phone"
            maxLength={50}
            value={draft.phone}
            onChange={(e) => setDraft({ ...draft, phone: e.target.value })}
          />
        </fieldset>
      ) : null}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : choice === ADD ? 'Add and assign' : 'Assign'}
      </button>
      {message ? (
        <span role={message.failed ? 'alert' : 'status'} className={message.failed ? 'error' : ''}>
          {message.text}
        </span>
      ) : null}
    </form>
  );
}
