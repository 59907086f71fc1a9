/**
 * A spreadsheet (CSV or XLSX) of numbers to track, as main reads it for the Track form: one row per
 * distinct number, with the line, customer and references its columns give, and what is wrong
 * with it in plain words.
 */
import type { REQUEST_TYPES } from './bridge';

/** Largest spreadsheet file accepted. */
export const MAX_SPREADSHEET_BYTES = 5 * 1024 * 1024;
/** Most data rows read from one sheet. */
export const MAX_SPREADSHEET_ROWS = 5000;

export interface SpreadsheetRow {
  /** The number as it will be sent: trimmed, upper case, without spaces or dashes. */
  number: string;
  /** What the number is, from its column or its shape; null lets the service tell. */
  requestType: (typeof REQUEST_TYPES)[number] | null;
  /** The line as a SCAC, when a column names it (by SCAC or by the line's name). */
  scac: string | null;
  /** The line as the sheet wrote it, when it names one. */
  lineText: string | null;
  customer: string | null;
  /** PO numbers and other references, in column order, each once. */
  refNumbers: string[];
  /** The sheet's row numbers (1 = first line of the file) naming this number. */
  sourceRows: number[];
  /** Why this row cannot be tracked; empty when it can. */
  problems: string[];
}

export interface SpreadsheetImport {
  fileName: string;
  format: 'csv' | 'xlsx';
  /** The header row's columns as recognised (e.g. "Container → number"); empty without one. */
  columns: string[];
  rows: SpreadsheetRow[];
  /** What is wrong with the file as a whole (rows skipped, columns not understood). */
  problems: string[];
}
