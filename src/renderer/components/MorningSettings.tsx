/**
 * Settings of the dispatcher's morning: the daily digest (on/off, local time) and the cost
 * clock's tables (storage tariff per terminal, per diem per line). Saved on their own; main
 * validates them against the settings schema.
 */
import { useEffect, useState, type FormEvent } from 'react';
import type { CostTables, LinePerDiem, TerminalTariff } from '../../shared/cost-clock';
import type { Settings } from '../../shared/settings';
import { quayside } from '../bridge';
import { describeFailure } from '../hooks/use-bridge';

interface TerminalDraft {
  terminal: string;
  currency: string;
  tiers: string;
}
interface LineDraft {
  scac: string;
  freeDays: string;
  perDay: string;
  currency: string;
}

/** "1:150, 5:225": from which charged day each rate applies. */
const tiersText = (tariff: TerminalTariff) =>
  tariff.tiers.map((tier) => `${tier.fromDay}:${tier.perDay}`).join(', ');

function parseTiers(text: string): TerminalTariff['tiers'] | null {
  const tiers = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => /^(\d{1,3})\s*:\s*(\d+(?:\.\d{1,2})?)$/.exec(part))
    .map((match) => (match ? { fromDay: Number(match[1]), perDay: Number(match[2]) } : null));
  if (tiers.length === 0 || tiers.some((tier) => tier === null || tier.fromDay < 1)) return null;
  return tiers as TerminalTariff['tiers'];
}

function toTables(
  terminals: TerminalDraft[],
  lines: LineDraft[],
): { tables: CostTables } | { error: string } {
  const out: CostTables = { terminals: [], lines: [] };
  for (const row of terminals) {
    const tiers = parseTiers(row.tiers);
    if (!row.terminal.trim())
      return { error: 'Every tariff needs a terminal name (or * for any).' };
    if (!tiers) return { error: `Tiers for ${row.terminal} read like "1:150, 5:225".` };
    out.terminals.push({
      terminal: row.terminal.trim(),
      currency: row.currency.trim().toUpperCase(),
      tiers,
    });
  }
  for (const row of lines) {
    const line: LinePerDiem = {
      scac: row.scac.trim().toUpperCase(),
      freeDays: Number(row.freeDays),
      perDay: Number(row.perDay),
      currency: row.currency.trim().toUpperCase(),
    };
    if (!Number.isInteger(line.freeDays) || !Number.isFinite(line.perDay))
      return { error: `Free days and rate for ${line.scac || 'a line'} must be numbers.` };
    out.lines.push(line);
  }
  return { tables: out };
}

export function MorningSettings({ settings }: { settings: Settings | null }) {
  const [terminals, setTerminals] = useState<TerminalDraft[]>([]);
  const [lines, setLines] = useState<LineDraft[]>([]);
  const [digestEnabled, setDigestEnabled] = useState(true);
  const [digestTime, setDigestTime] = useState('07:00');
  const [state, setState] = useState<string | null>(null);

  useEffect(() => {
    if (!settings) return;
    setTerminals(
      settings.costs.terminals.map((t) => ({
        terminal: t.terminal,
        currency: t.currency,
        tiers: tiersText(t),
      })),
    );
    setLines(
      settings.costs.lines.map((l) => ({
        scac: l.scac,
        freeDays: String(l.freeDays),
        perDay: String(l.perDay),
        currency: l.currency,
      })),
    );
    setDigestEnabled(settings.digest.enabled);
    setDigestTime(settings.digest.time);
  }, [settings]);

  if (!settings) return null;

  const onSave = async (event: FormEvent) => {
    event.preventDefault();
    const tables = toTables(terminals, lines);
    if ('error' in tables) {
      setState(tables.error);
      return;
    }
    setState('Saving…');
    try {
      await quayside.updateSettings({
        costs: tables.tables,
        digest: { enabled: digestEnabled, time: digestTime },
      });
      setState('Saved');
    } catch (failure) {
      setState(`Not saved: ${describeFailure(failure)}`);
    }
  };

  const editTerminal = (index: number, change: Partial<TerminalDraft>) =>
    setTerminals(terminals.map((row, i) => (i === index ? { ...row, ...change } : row)));
  const editLine = (index: number, change: Partial<LineDraft>) =>
    setLines(lines.map((row, i) => (i === index ? { ...row, ...change } : row)));

  return (
    <form className="settings morning-settings" onSubmit={onSave} aria-label="Worklist and costs">
      <fieldset>
        <legend>Daily digest</legend>
        <label className="inline">
          <input
            type="checkbox"
            checked={digestEnabled}
            onChange={(e) => setDigestEnabled(e.target.checked)}
          />
          One notification a day with what to move, what is due and what is accruing
        </label>
        <label>
          Digest time (this computer&apos;s time zone, on the app clock)
          <input
            type="time"
            value={digestTime}
            required
            onChange={(e) => setDigestTime(e.target.value)}
          />
        </label>
      </fieldset>
      <fieldset>
        <legend>Storage tariffs per terminal</legend>
        <p className="muted small">
          Charged per calendar day after free time. Tiers: from which day each rate applies, e.g.
          &quot;1:150, 5:225&quot;. The row named * applies to every other terminal.
        </p>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Terminal</th>
              <th scope="col">Currency</th>
              <th scope="col">Tiers (day:rate)</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {terminals.map((row, index) => (
              <tr key={index}>
                <td>
                  <input
                    aria-label={`Terminal ${index + 1}`}
                    value={row.terminal}
                    maxLength={120}
                    onChange={(e) => editTerminal(index, { terminal: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Currency of tariff ${index + 1}`}
                    value={row.currency}
                    size={4}
                    maxLength={3}
                    onChange={(e) => editTerminal(index, { currency: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Tiers of tariff ${index + 1}`}
                    value={row.tiers}
                    maxLength={200}
                    onChange={(e) => editTerminal(index, { tiers: e.target.value })}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setTerminals(terminals.filter((_, i) => i !== index))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            setTerminals([...terminals, { terminal: '', currency: 'USD', tiers: '1:150' }])
          }
        >
          Add a terminal
        </button>
      </fieldset>
      <fieldset>
        <legend>Per diem per line (empty return)</legend>
        <p className="muted small">
          Free days count from the pickup day; then the rate runs per day until the empty is back.
          The row * applies to every other line.
        </p>
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Line (SCAC)</th>
              <th scope="col">Free days</th>
              <th scope="col">Per day</th>
              <th scope="col">Currency</th>
              <th scope="col" />
            </tr>
          </thead>
          <tbody>
            {lines.map((row, index) => (
              <tr key={index}>
                <td>
                  <input
                    aria-label={`Line ${index + 1}`}
                    value={row.scac}
                    size={5}
                    maxLength={4}
                    onChange={(e) => editLine(index, { scac: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Free days of line ${index + 1}`}
                    type="number"
                    min={0}
                    max={60}
                    value={row.freeDays}
                    onChange={(e) => editLine(index, { freeDays: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Per day of line ${index + 1}`}
                    type="number"
                    min={0}
                    step="0.01"
                    value={row.perDay}
                    onChange={(e) => editLine(index, { perDay: e.target.value })}
                  />
                </td>
                <td>
                  <input
                    aria-label={`Currency of line ${index + 1}`}
                    value={row.currency}
                    size={4}
                    maxLength={3}
                    onChange={(e) => editLine(index, { currency: e.target.value })}
                  />
                </td>
                <td>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => setLines(lines.filter((_, i) => i !== index))}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <button
          type="button"
          className="secondary"
          onClick={() =>
            setLines([...lines, { scac: '', freeDays: '4', perDay: '125', currency: 'USD' }])
          }
        >
          Add a line
        </button>
      </fieldset>
      <div className="settings__actions">
        <button type="submit">Save worklist and costs</button>
        {state ? (
          <span role="status" className="muted">
            {state}
          </span>
        ) : null}
      </div>
    </form>
  );
}
