/**
 * The D&D statement as CSV (one row per charged day, RFC 4180, CRLF) and as a file name.
 * No Node imports: the renderer bundles this file.
 */
import { csvCell } from '../csv-cell';
import type { ChargeSection, ChargesStatement, PassThroughStatement } from './statement';

export const STATEMENT_CSV_COLUMNS = [
  'container',
  'bill_of_lading',
  'charge',
  'billed_by',
  'date',
  'weekday',
  'charged_day',
  'tier_from_day',
  'rate',
  'amount',
  'currency',
  'disputed',
  'dispute_reason',
  'evidence',
  'facts',
] as const;

const rows = (s: ChargesStatement, section: ChargeSection | null) =>
  (section?.days ?? []).map((day) => [
    s.containerNumber,
    s.billOfLading,
    section!.kind,
    section!.billedBy,
    day.date,
    day.weekday,
    day.dayNumber,
    day.tier,
    day.rate.toFixed(2),
    day.amount.toFixed(2),
    section!.currency,
    day.dispute ? 'yes' : 'no',
    day.dispute?.reasons.join('; ') ?? '',
    day.dispute?.evidence.join('; ') ?? '',
    day.facts.join('; '),
  ]);

export function statementCsv(s: ChargesStatement): string {
  const lines = [[...STATEMENT_CSV_COLUMNS], ...rows(s, s.demurrage), ...rows(s, s.detention)].map(
    (cells) => cells.map((c) => csvCell(c)).join(','),
  );
  return `${lines.join('\r\n')}\r\n`;
}

/** `charges-MSCU1234565-2026-12-08.csv`: the container and the statement's day. */
export function statementFileName(s: ChargesStatement, ext: 'csv' | 'pdf'): string {
  const number = (s.containerNumber ?? 'container').replace(/[^A-Za-z0-9]/g, '');
  return `charges-${number}-${s.generatedAt.slice(0, 10)}.${ext}`;
}

export const PASS_THROUGH_CSV_COLUMNS = [
  'customer',
  'container',
  'bill_of_lading',
  'currency',
  'days',
  'demurrage',
  'detention',
  'disputed',
  'total',
] as const;

/** A customer's pass-through statement: one row per container (and currency). */
export function passThroughCsv(p: PassThroughStatement): string {
  const lines = [
    [...PASS_THROUGH_CSV_COLUMNS],
    ...p.lines.map((l) => [
      p.customer,
      l.containerNumber,
      l.billOfLading,
      l.currency,
      l.days,
      l.demurrage.toFixed(2),
      l.detention.toFixed(2),
      l.disputed.toFixed(2),
      l.total.toFixed(2),
    ]),
  ];
  return `${lines.map((cells) => cells.map((c) => csvCell(c)).join(',')).join('\r\n')}\r\n`;
}
