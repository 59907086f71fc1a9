/**
 * Holds: which are active, who places each kind, and what a dispatcher does about it.
 */
import { spellOut } from './statuses';

export interface HoldLike {
  name: string;
  /** `hold` blocks pickup; `pending` is announced; a remote service may send others. */
  status: string;
}

/** The hold status that blocks pickup; `pending` is announced but not (yet) a hold. */
export const ACTIVE_HOLD_STATUS = 'hold';

export const isActiveHold = (hold: HoldLike): boolean => hold.status === ACTIVE_HOLD_STATUS;

/** Holds that block pickup now. */
export const activeHolds = <H extends HoldLike>(holds: readonly H[]): H[] =>
  holds.filter(isActiveHold);

/** Announced holds that do not block pickup yet. */
export const pendingHolds = <H extends HoldLike>(holds: readonly H[]): H[] =>
  holds.filter((h) => h.status === 'pending');

/** Who places a hold (and so who must release it). */
export const HOLD_PARTIES = ['line', 'customs', 'government', 'port', 'terminal'] as const;
export type HoldParty = (typeof HOLD_PARTIES)[number];

export const HOLD_PARTY_LABELS: Record<HoldParty, string> = {
  line: 'the line',
  customs: 'customs (CBP)',
  government: 'a government agency',
  port: 'the port',
  terminal: 'the terminal',
};

/**
 * The hold codes terminals report, each with a readable name and what it means for the
 * dispatcher: who must clear it before the box can go. Unknown codes are spelled out.
 */
export const HOLD_KINDS: Readonly<
  Record<string, { label: string; description: string; action: string; placedBy: HoldParty }>
> = {
  customs: {
    label: 'Customs',
    description: 'Customs (CBP) has not released the cargo.',
    action: 'Ask the customs broker for the release',
    placedBy: 'customs',
  },
  freight: {
    label: 'Freight',
    description: 'The line holds the box until freight charges are paid.',
    action: 'Pay the freight and get the line release',
    placedBy: 'line',
  },
  usda: {
    label: 'USDA',
    description: 'USDA agriculture inspection must release the cargo.',
    action: 'Chase the USDA inspection release',
    placedBy: 'government',
  },
  vacis: {
    label: 'VACIS exam',
    description: 'CBP selected the box for a VACIS X-ray exam.',
    action: 'Ask the broker when the exam is scheduled',
    placedBy: 'customs',
  },
  tmf: {
    label: 'Traffic mitigation fee',
    description: 'The port traffic mitigation fee (TMF) is unpaid.',
    action: 'Pay the traffic mitigation fee',
    placedBy: 'port',
  },
  ctf: {
    label: 'Clean truck fee',
    description: 'The port clean truck fee is unpaid.',
    action: 'Pay the clean truck fee',
    placedBy: 'port',
  },
  line: {
    label: 'Line',
    description: 'The shipping line holds the box.',
    action: 'Ask the line to release the box',
    placedBy: 'line',
  },
  other: {
    label: 'Other',
    description: 'The terminal reports a hold of another kind.',
    action: 'Ask the terminal what clears the hold',
    placedBy: 'terminal',
  },
};

const holdKind = (code: string) =>
  Object.hasOwn(HOLD_KINDS, code.toLowerCase()) ? HOLD_KINDS[code.toLowerCase()] : undefined;

export function holdLabel(code: string): string {
  return holdKind(code)?.label ?? spellOut(code);
}

export function holdDescription(code: string): string {
  return holdKind(code)?.description ?? `Hold reported by the terminal: ${holdLabel(code)}.`;
}

/** Who placed a hold; a code the terminal does not explain is taken as its own. */
export function holdPlacedBy(code: string): HoldParty {
  return holdKind(code)?.placedBy ?? 'terminal';
}

/** What the dispatcher does to clear a hold: "Ask the customs broker for the release". */
export function holdAction(code: string): string {
  return holdKind(code)?.action ?? `Ask the terminal what clears the ${holdLabel(code)} hold`;
}
