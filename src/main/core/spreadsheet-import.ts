/**
 * Reads a spreadsheet of numbers to track (CSV or XLSX, judged by content) into one row per
 * distinct number with its line, customer and references. The file comes from outside: every
 * bound (bytes, rows, unzipped size) is checked before the work it guards, and every refusal
 * is a sentence for the user.
 */
import { inflateRawSync } from 'node:zlib';
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/node';
import { TRACK_LIMITS, type REQUEST_TYPES } from '../../shared/bridge';
import { sniffDocumentType } from '../../shared/documents';
import { containerNumberProblem, normalizeNumber } from '../../shared/iso6346';
import { resolveScac, type NamedLine } from '../../shared/line-names';
import {
  MAX_SPREADSHEET_BYTES,
  MAX_SPREADSHEET_ROWS,
  type SpreadsheetImport,
  type SpreadsheetRow,
} from '../../shared/spreadsheet-import';

type RequestType = (typeof REQUEST_TYPES)[number];

/** A file refused as a whole; the message is for the user. */
export class SpreadsheetError extends Error {}

/** Most bytes an XLSX may unzip to (its XML is far larger than the file). */
export const MAX_UNZIPPED_BYTES = 40 * 1024 * 1024;
const MAX_ZIP_ENTRIES = 1000;
/** How far down the header row may be (title lines may come first). */
const HEADER_SEARCH_ROWS = 5;

type ColumnRole =
  | { role: 'number'; kind: RequestType | null }
  | { role: 'line' }
  | { role: 'customer' }
  | { role: 'reference' };

/** Header names, compared lower case without spaces or punctuation ("B/L" is "bl"). */
const HEADER_ROLES: Record<string, ColumnRole> = {};
const name = (role: ColumnRole, ...headers: string[]) => {
  for (const header of headers) HEADER_ROLES[header] = role;
};
name(
  { role: 'number', kind: 'container' },
  'container',
  'containers',
  'containerno',
  'containernumber',
  'containernr',
  'containerid',
  'cntr',
  'cntrno',
  'cntrnumber',
  'ctr',
  'ctrno',
  'equipment',
  'equipmentnumber',
);
name(
  { role: 'number', kind: 'bill_of_lading' },
  'bl',
  'blno',
  'blnumber',
  'bol',
  'bolnumber',
  'mbl',
  'mblno',
  'mblnumber',
  'billoflading',
  'billofladingnumber',
  'masterbilloflading',
);
name(
  { role: 'number', kind: 'booking_number' },
  'booking',
  'bookingno',
  'bookingnumber',
  'bookingref',
  'bookingreference',
);
name({ role: 'number', kind: null }, 'number', 'trackingnumber', 'shipmentnumber');
name(
  { role: 'line' },
  'scac',
  'line',
  'carrier',
  'carrierscac',
  'shippingline',
  'steamshipline',
  'ssl',
  'linescac',
  'vocc',
);
name({ role: 'customer' }, 'customer', 'customername', 'client', 'clientname');
name(
  { role: 'reference' },
  'po',
  'pono',
  'ponumber',
  'pos',
  'purchaseorder',
  'purchaseordernumber',
  'customerpo',
  'reference',
  'references',
  'ref',
  'refno',
  'refs',
  'refnumber',
  'referencenumber',
  'customerref',
  'customerreference',
);

/** Which number column wins when a row fills several: the most specific kind first. */
const NUMBER_PRIORITY: (RequestType | null)[] = [
  'container',
  'bill_of_lading',
  'booking_number',
  null,
];

const headerKey = (cell: string) => cell.toLowerCase().replace(/[^a-z0-9]/g, '');
const CONTAINER_SHAPE = /^[A-Z]{4}\d{7}$/;
/** A number a spreadsheet wrote in exponent form: its digits are lost. */
const EXPONENT_FORM = /^\d+(\.\d+)?E\+?\d+$/i;
/** What can pass for a tracking number in a header-less first column. */
const looksLikeNumber = (cell: string) => {
  const value = normalizeNumber(cell);
  return /^[A-Z0-9]{6,40}$/.test(value) && /\d/.test(value) && /[A-Z]/.test(value);
};

/** The file's kind by its first bytes (never its name), or a refusal naming what it is. */
function sniffSpreadsheet(fileName: string, bytes: Uint8Array): 'csv' | 'xlsx' {
  if (bytes.byteLength === 0) throw new SpreadsheetError(`${fileName} is empty.`);
  if (bytes.byteLength > MAX_SPREADSHEET_BYTES) {
    throw new SpreadsheetError(
      `${fileName} is larger than ${MAX_SPREADSHEET_BYTES / 1024 / 1024} MB: split it into smaller sheets.`,
    );
  }
  const startsWith = (...signature: number[]) => signature.every((b, i) => bytes[i] === b);
  if (startsWith(0x50, 0x4b, 0x03, 0x04)) return 'xlsx';
  if (startsWith(0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1)) {
    throw new SpreadsheetError(
      `${fileName} is an old-format Excel file (.xls): save it as .xlsx or CSV and try again.`,
    );
  }
  const document = sniffDocumentType(bytes);
  if (document) {
    throw new SpreadsheetError(
      `${fileName} is a ${document === 'application/pdf' ? 'PDF' : 'picture'}, not a spreadsheet: drop it on the documents area to have its numbers read.`,
    );
  }
  const head = bytes.subarray(0, 8192);
  const utf16 = startsWith(0xff, 0xfe) || startsWith(0xfe, 0xff);
  if (!utf16 && head.includes(0)) {
    throw new SpreadsheetError(`${fileName} is not a CSV or XLSX spreadsheet.`);
  }
  return 'csv';
}

/** The text of a CSV file: UTF-8 (with or without BOM), UTF-16 with BOM, else Windows-1252. */
function decodeText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  try {
    // The decoder drops a UTF-8 BOM itself.
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Excel on Windows saves "CSV" in the local code page.
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** A non-empty row of the sheet with its number in the file (1 = first). */
interface SheetLine {
  cells: string[];
  sourceRow: number;
}

/** Rows kept before a sheet is known to be too long: the data rows plus header and titles. */
const ROWS_KEPT = MAX_SPREADSHEET_ROWS + HEADER_SEARCH_ROWS + 1;

const nonEmpty = (rows: string[][]): SheetLine[] =>
  rows.flatMap((cells, index) => (cells.some(Boolean) ? [{ cells, sourceRow: index + 1 }] : []));

function readCsv(fileName: string, bytes: Uint8Array): { lines: SheetLine[]; problems: string[] } {
  const lines: SheetLine[] = [];
  const problems: string[] = [];
  let row = 0;
  Papa.parse<string[]>(decodeText(bytes), {
    delimitersToGuess: [',', ';', '\t', '|'],
    // Row by row, so a file of blank lines or far too many rows never sits in memory whole.
    step: (result, parser) => {
      row++;
      for (const error of result.errors) {
        if (problems.length < 5 && error.code !== 'UndetectableDelimiter')
          problems.push(`${fileName}, row ${row}: ${error.message}`);
      }
      const cells = result.data.map((cell) => cell.trim());
      if (!cells.some(Boolean)) return;
      lines.push({ cells, sourceRow: row });
      if (lines.length > ROWS_KEPT) parser.abort();
    },
  });
  return { lines, problems };
}

/**
 * Checks an XLSX (a ZIP archive) before it is unzipped: a bounded number of entries, only
 * stored or deflated ones, that really inflate to no more than MAX_UNZIPPED_BYTES in all (the
 * sizes an archive declares can lie, so each entry is inflated against the remaining budget).
 */
export function checkXlsxArchive(fileName: string, bytes: Uint8Array): void {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const broken = () =>
    new SpreadsheetError(`${fileName} is a damaged ZIP archive, not a readable XLSX workbook.`);
  let end = -1;
  for (let at = bytes.byteLength - 22; at >= Math.max(0, bytes.byteLength - 22 - 65535); at--) {
    if (view.getUint32(at, true) === 0x06054b50) {
      end = at;
      break;
    }
  }
  if (end < 0) throw broken();
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (entries === 0xffff || at === 0xffffffff || entries > MAX_ZIP_ENTRIES) {
    throw new SpreadsheetError(`${fileName} holds too many parts to be a sheet of numbers.`);
  }
  let unzipped = 0;
  let hasWorkbook = false;
  for (let i = 0; i < entries; i++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== 0x02014b50) throw broken();
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const entryName = Buffer.from(bytes.subarray(at + 46, at + 46 + nameLength)).toString('utf8');
    if (entryName === 'xl/workbook.xml') hasWorkbook = true;
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (local + 30 > bytes.byteLength || view.getUint32(local, true) !== 0x04034b50) throw broken();
    const dataStart =
      local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (dataStart + compressedSize > bytes.byteLength) throw broken();
    const data = bytes.subarray(dataStart, dataStart + compressedSize);
    const budget = MAX_UNZIPPED_BYTES - unzipped;
    if (method === 0) {
      unzipped += compressedSize;
    } else if (method === 8) {
      try {
        unzipped += inflateRawSync(data, { maxOutputLength: Math.max(1, budget) }).byteLength;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') unzipped = Infinity;
        else throw broken();
      }
    } else {
      throw new SpreadsheetError(`${fileName} uses a compression XLSX files do not use.`);
    }
    if (unzipped > MAX_UNZIPPED_BYTES) {
      throw new SpreadsheetError(
        `${fileName} unpacks to more than ${MAX_UNZIPPED_BYTES / 1024 / 1024} MB: too large for a sheet of numbers.`,
      );
    }
  }
  if (!hasWorkbook) {
    throw new SpreadsheetError(`${fileName} is a ZIP archive, not an Excel workbook (.xlsx).`);
  }
}

/**
 * A number cell's text without the float rounding of JavaScript numbers: the reader hands over
 * the digits the file stores, and an exact exponent form (1.2345678901E10) is written out.
 */
function exactNumberText(stored: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?E([+-]?\d+)$/i.exec(stored);
  if (!match) return stored;
  const [, sign, whole, fraction = '', exponentText] = match;
  const exponent = Number(exponentText);
  if (exponent < fraction.length || exponent > 30) return stored;
  return `${sign}${whole}${fraction}${'0'.repeat(exponent - fraction.length)}`.replace(
    /^(-?)0+(?=\d)/,
    '$1',
  );
}

const cellText = (value: unknown): string => {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'string') return value.trim();
  return String(value);
};

async function readXlsx(fileName: string, bytes: Uint8Array): Promise<SheetLine[]> {
  checkXlsxArchive(fileName, bytes);
  try {
    const rows = await readSheet(Buffer.from(bytes), {
      // Numbers stay the text the file stores: identifiers never pass through a float.
      parseNumber: (stored: string) => exactNumberText(stored),
    });
    return nonEmpty(rows.map((row) => row.map(cellText)));
  } catch {
    throw new SpreadsheetError(`${fileName} could not be read as an XLSX workbook.`);
  }
}

interface Layout {
  headerIndex: number | null;
  numberColumns: { index: number; kind: RequestType | null }[];
  lineColumn: number | null;
  customerColumn: number | null;
  referenceColumns: number[];
  columns: string[];
  ignored: string[];
}

/** The header row (the first row naming a number column) and what each column holds. */
function findLayout(lines: readonly SheetLine[]): Layout | null {
  if (lines.length === 0) return null;
  // A title line or two may come before the header.
  for (let index = 0; index < Math.min(lines.length, HEADER_SEARCH_ROWS); index++) {
    const row = lines[index]!.cells;
    const roles = row.map((cell) => HEADER_ROLES[headerKey(cell)]);
    if (!roles.some((role) => role?.role === 'number')) continue;
    const layout: Layout = {
      headerIndex: index,
      numberColumns: [],
      lineColumn: null,
      customerColumn: null,
      referenceColumns: [],
      columns: [],
      ignored: [],
    };
    roles.forEach((role, column) => {
      const header = row[column]!;
      if (!role) {
        if (header) layout.ignored.push(header);
        return;
      }
      if (role.role === 'number') {
        layout.numberColumns.push({ index: column, kind: role.kind });
        layout.columns.push(`${header}: number`);
      } else if (role.role === 'line' && layout.lineColumn === null) {
        layout.lineColumn = column;
        layout.columns.push(`${header}: shipping line`);
      } else if (role.role === 'customer' && layout.customerColumn === null) {
        layout.customerColumn = column;
        layout.columns.push(`${header}: customer`);
      } else if (role.role === 'reference') {
        layout.referenceColumns.push(column);
        layout.columns.push(`${header}: reference`);
      } else {
        layout.ignored.push(header);
      }
    });
    layout.numberColumns.sort(
      (a, b) => NUMBER_PRIORITY.indexOf(a.kind) - NUMBER_PRIORITY.indexOf(b.kind),
    );
    return layout;
  }
  // No header: a first column of numbers is read as one.
  if (!looksLikeNumber(lines[0]!.cells[0] ?? '')) return null;
  return {
    headerIndex: null,
    numberColumns: [{ index: 0, kind: null }],
    lineColumn: null,
    customerColumn: null,
    referenceColumns: [],
    columns: [],
    ignored: [],
  };
}

const splitReferences = (cell: string) =>
  cell
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);

/** One sheet row read into a tracking row (before duplicates are merged). */
function readRow(
  row: string[],
  sourceRow: number,
  layout: Layout,
  lines: readonly NamedLine[],
): SpreadsheetRow {
  const problems: string[] = [];
  const filled = layout.numberColumns.find((column) => (row[column.index] ?? '') !== '');
  const raw = filled ? row[filled.index]! : '';
  const number = normalizeNumber(raw);
  let requestType = filled?.kind ?? null;
  if (!filled) problems.push('No number in this row.');
  else if (EXPONENT_FORM.test(raw)) {
    problems.push(
      `${raw} is a number the spreadsheet shortened, its digits are lost: format the column as text and export again.`,
    );
  } else if (number.length > TRACK_LIMITS.numberLength) {
    problems.push(`Longer than ${TRACK_LIMITS.numberLength} characters.`);
  } else if (!/^[A-Z0-9]+$/.test(number)) {
    problems.push('A number has only letters and digits.');
  } else {
    if (requestType === null && CONTAINER_SHAPE.test(number)) requestType = 'container';
    const problem = requestType === 'container' ? containerNumberProblem(number) : null;
    if (problem) problems.push(problem);
  }

  const lineText = layout.lineColumn === null ? '' : (row[layout.lineColumn] ?? '');
  const scac = lineText ? resolveScac(lineText, lines) : null;
  if (lineText && !scac) {
    problems.push(`"${lineText}" is not a shipping line we know: write its SCAC.`);
  }

  const customer = layout.customerColumn === null ? '' : (row[layout.customerColumn] ?? '');
  if (customer.length > TRACK_LIMITS.customerLength) {
    problems.push(`The customer name is longer than ${TRACK_LIMITS.customerLength} characters.`);
  }
  const refNumbers = [
    ...new Set(layout.referenceColumns.flatMap((column) => splitReferences(row[column] ?? ''))),
  ];
  const shortened = refNumbers.find((ref) => EXPONENT_FORM.test(ref));
  if (shortened) {
    problems.push(
      `The reference ${shortened} is a number the spreadsheet shortened: format the column as text and export again.`,
    );
  }
  return {
    number: filled ? number : '',
    requestType,
    scac,
    lineText: lineText || null,
    customer: customer || null,
    refNumbers,
    sourceRows: [sourceRow],
    problems,
  };
}

/** Problems with what one merged row would send beyond a single request's limits. */
function limitProblems(row: SpreadsheetRow): string[] {
  const problems: string[] = [];
  if (row.refNumbers.length > TRACK_LIMITS.listItems) {
    problems.push(`More than ${TRACK_LIMITS.listItems} references.`);
  }
  const long = row.refNumbers.find((ref) => ref.length > TRACK_LIMITS.referenceLength);
  if (long) {
    problems.push(
      `The reference ${long.slice(0, 20)}… is longer than ${TRACK_LIMITS.referenceLength} characters.`,
    );
  }
  return problems;
}

/** Rows naming the same number become one, with all their references. */
function mergeDuplicates(rows: SpreadsheetRow[]): SpreadsheetRow[] {
  const byNumber = new Map<string, SpreadsheetRow>();
  const merged: SpreadsheetRow[] = [];
  for (const row of rows) {
    const first = row.number ? byNumber.get(row.number) : undefined;
    if (!first) {
      if (row.number) byNumber.set(row.number, row);
      merged.push(row);
      continue;
    }
    first.sourceRows.push(...row.sourceRows);
    first.refNumbers = [...new Set([...first.refNumbers, ...row.refNumbers])];
    for (const problem of row.problems)
      if (!first.problems.includes(problem)) first.problems.push(problem);
    const conflict = (label: string, a: string | null, b: string | null) => {
      if (a && b && a !== b) {
        first.problems.push(
          `Listed in rows ${first.sourceRows.join(', ')} with different ${label}: ${a}, ${b}.`,
        );
      }
    };
    conflict('lines', first.scac, row.scac);
    conflict('customers', first.customer, row.customer);
    first.scac ??= row.scac;
    first.lineText ??= row.lineText;
    first.customer ??= row.customer;
  }
  for (const row of merged) row.problems.push(...limitProblems(row));
  return merged;
}

/**
 * Reads a CSV or XLSX file (its first sheet) into rows to track. Throws SpreadsheetError when
 * the file as a whole cannot be used.
 */
export async function readSpreadsheet(
  fileName: string,
  bytes: Uint8Array,
  lines: readonly NamedLine[],
): Promise<SpreadsheetImport> {
  const format = sniffSpreadsheet(fileName, bytes);
  const problems: string[] = [];
  let sheet: SheetLine[];
  if (format === 'xlsx') {
    sheet = await readXlsx(fileName, bytes);
  } else {
    const csv = readCsv(fileName, bytes);
    sheet = csv.lines;
    problems.push(...csv.problems);
  }
  const layout = findLayout(sheet);
  if (!layout) {
    throw new SpreadsheetError(
      `${fileName} has no header naming a Container, BL or Booking column, and its first column does not hold numbers.`,
    );
  }
  const dataRows = sheet.slice(layout.headerIndex === null ? 0 : layout.headerIndex + 1);
  if (dataRows.length > MAX_SPREADSHEET_ROWS) {
    throw new SpreadsheetError(
      `${fileName} has more than ${MAX_SPREADSHEET_ROWS.toLocaleString('en-US')} rows: split it into smaller sheets.`,
    );
  }
  if (dataRows.length === 0) throw new SpreadsheetError(`${fileName} has no rows of numbers.`);
  if (layout.headerIndex === null) {
    problems.push(
      'No header row: the first column is read as numbers, other columns are left out.',
    );
  } else if (layout.ignored.length) {
    problems.push(`Columns left out: ${layout.ignored.join(', ')}.`);
  }
  const rows = mergeDuplicates(
    dataRows.map(({ cells, sourceRow }) => readRow(cells, sourceRow, layout, lines)),
  );
  return { fileName, format, columns: layout.columns, rows, problems };
}
