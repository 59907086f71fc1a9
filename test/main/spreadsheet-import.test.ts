/**
 * Spreadsheets of numbers dropped on the Track form, read the way main reads them: real CSV
 * text and real XLSX workbooks written in the test, and files that must be refused.
 */
import { deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import writeXlsxFile, { type Cell } from 'write-excel-file/node';
import {
  MAX_UNZIPPED_BYTES,
  SpreadsheetError,
  readSpreadsheet,
} from '../../src/main/core/spreadsheet-import';
import { shippingLineOptions } from '../../src/main/core/handlers/tracking-requests';
import { checkDigit } from '../../src/shared/iso6346';
import { MAX_SPREADSHEET_BYTES, MAX_SPREADSHEET_ROWS } from '../../src/shared/spreadsheet-import';

const LINES = shippingLineOptions();
/** A valid container number: owner code and serial with its check digit. */
const box = (first10: string) => `${first10}${checkDigit(first10)}`;
const A = box('MSCU123456');
const B = box('MAEU765432');
const C = box('HLXU100200');
/** A's digits with its check digit changed: a typo the check digit catches. */
const TYPO = `${A.slice(0, 10)}${(Number(A[10]) + 1) % 10}`;

const text = (value: string) => new TextEncoder().encode(value);
const read = (name: string, bytes: Uint8Array) => readSpreadsheet(name, bytes, LINES);
const refusal = async (name: string, bytes: Uint8Array): Promise<string> => {
  const failure = await read(name, bytes).then(
    () => null,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(SpreadsheetError);
  return (failure as Error).message;
};

/** A ZIP archive holding the given entries, each deflated. */
function zip(entries: { name: string; data: Uint8Array }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name);
    const packed = deflateRawSync(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(entry.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

describe('reading a spreadsheet of numbers to track', () => {
  it('reads a CSV with line names, customers and PO references', async () => {
    const csv = [
      'Container number,Line,Customer,PO number,Notes',
      `${A},Maersk,Acme Foods,PO-1001,first`,
      `${B},MSCU,"Beta Imports, Inc.",PO-2001,`,
      `${C},,,,`,
    ].join('\n');
    const result = await read('boxes.csv', text(csv));
    expect(result.format).toBe('csv');
    expect(result.rows).toEqual([
      {
        number: A,
        requestType: 'container',
        scac: 'MAEU',
        lineText: 'Maersk',
        customer: 'Acme Foods',
        refNumbers: ['PO-1001'],
        sourceRows: [2],
        problems: [],
      },
      expect.objectContaining({ number: B, scac: 'MSCU', customer: 'Beta Imports, Inc.' }),
      expect.objectContaining({ number: C, scac: null, customer: null, refNumbers: [] }),
    ]);
    expect(result.problems).toEqual(['Columns left out: Notes.']);
  });

  it('reads a semicolon CSV saved with a BOM and CRLF line ends, quoted fields included', async () => {
    const csv = `\uFEFFCNTR;B/L;Ref;Customer\r\n${A};;"PO 7; PO 8";"Acme; West"\r\n;MEDUAB123456;PO 9;\r\n`;
    const result = await read('export.csv', text(csv));
    expect(result.rows).toEqual([
      expect.objectContaining({
        number: A,
        requestType: 'container',
        refNumbers: ['PO 7', 'PO 8'],
        customer: 'Acme; West',
        problems: [],
      }),
      // No container in this row: its bill of lading is the number.
      expect.objectContaining({
        number: 'MEDUAB123456',
        requestType: 'bill_of_lading',
        refNumbers: ['PO 9'],
        problems: [],
      }),
    ]);
  });

  it('reads the first sheet of an XLSX, numbers kept digit for digit', async () => {
    const header: Cell[] = ['Container', 'Carrier', 'Customer', 'PO'].map((value) => ({
      type: String,
      value,
    }));
    const rows: Cell[][] = [
      header,
      [
        { type: String, value: A },
        { type: String, value: 'Hapag-Lloyd' },
        { type: String, value: 'Acme Foods' },
        // A long PO number in a number cell, as people type it; shown as 1.23E+10 by Excel.
        { type: Number, value: 12345678901, format: '0.00E+00' },
      ],
      [{ type: String, value: B }, null, null, { type: Number, value: 4500012345 }],
      // A date typed as a reference is kept as the day it shows.
      [
        { type: String, value: C },
        null,
        null,
        { type: Date, value: new Date('2026-11-23T00:00:00Z'), format: 'yyyy-mm-dd' },
      ],
    ];
    const bytes = await writeXlsxFile(rows, { sheet: 'Bookings' }).toBuffer();
    const result = await read('bookings.xlsx', bytes);
    expect(result.format).toBe('xlsx');
    expect(result.rows).toEqual([
      expect.objectContaining({
        number: A,
        scac: 'HLCU',
        customer: 'Acme Foods',
        refNumbers: ['12345678901'],
        problems: [],
      }),
      expect.objectContaining({ number: B, scac: null, refNumbers: ['4500012345'] }),
      expect.objectContaining({ number: C, refNumbers: ['2026-11-23'] }),
    ]);
  });

  it('reads a sheet without a header when its first column holds numbers', async () => {
    const result = await read('list.csv', text(`${A},whatever\n${B}\nMEDUAB123456\n`));
    expect(result.rows.map((row) => [row.number, row.requestType])).toEqual([
      [A, 'container'],
      [B, 'container'],
      // Not a container's shape: the service tells what it is.
      ['MEDUAB123456', null],
    ]);
    expect(result.problems).toEqual([
      'No header row: the first column is read as numbers, other columns are left out.',
    ]);
  });

  it('merges rows naming the same number and keeps all their references', async () => {
    const csv = `Container,PO\n${A},PO-1\n${B},PO-2\n${a(A)},PO-3\n${A},PO-1\n`;
    const result = await read('dupes.csv', text(csv));
    expect(result.rows).toHaveLength(2);
    expect(result.rows[0]).toMatchObject({
      number: A,
      refNumbers: ['PO-1', 'PO-3'],
      sourceRows: [2, 4, 5],
      problems: [],
    });
  });

  it('marks a row whose line or customer differs from an earlier row of the same number', async () => {
    const csv = `Container,SCAC,Customer\n${A},MSCU,Acme\n${A},MAEU,Acme\n`;
    const [row] = (await read('conflict.csv', text(csv))).rows;
    expect(row!.problems).toEqual(['Listed in rows 2, 3 with different lines: MSCU, MAEU.']);
  });

  it('reports wrong check digits and unusable numbers on their own rows only', async () => {
    const csv = [
      'Container,PO',
      `${A},PO-1`,
      `${TYPO},PO-2`,
      'ABCD12,PO-3',
      ',PO-4',
      'MSCU 123/456,PO-5',
    ].join('\n');
    const rows = (await read('typos.csv', text(csv))).rows;
    expect(rows.map((row) => [row.number, row.problems.length > 0])).toEqual([
      [A, false],
      [TYPO, true],
      ['ABCD12', true],
      ['', true],
      ['MSCU123/456', true],
    ]);
    expect(rows[1]!.problems[0]).toMatch(/Check digit does not match/);
    expect(rows[3]!.problems).toEqual(['No number in this row.']);
  });

  it('refuses a number a spreadsheet wrote in exponent form instead of guessing its digits', async () => {
    const rows = (await read('sci.csv', text(`Booking,Ref\n1.23E+10,PO-1\n${A},4.5E+09\n`))).rows;
    expect(rows[0]!.problems[0]).toMatch(/shortened.*format the column as text/);
    expect(rows[1]!.problems).toEqual([
      'The reference 4.5E+09 is a number the spreadsheet shortened: format the column as text and export again.',
    ]);
  });

  it('marks a line it does not know and too many references', async () => {
    const refs = Array.from({ length: 21 }, (_, i) => `R${i}`).join(';');
    const csv = `Container,Line,Reference\n${A},Nowhere Shipping Co,"${refs}"\n`;
    const [row] = (await read('lines.csv', text(csv))).rows;
    expect(row!.problems).toEqual([
      '"Nowhere Shipping Co" is not a shipping line we know: write its SCAC.',
      'More than 20 references.',
    ]);
  });

  it('refuses files that are not spreadsheets, by their content', async () => {
    expect(await refusal('scan.csv', text('%PDF-1.7\n1 0 obj\n'))).toMatch(
      /is a PDF, not a spreadsheet/,
    );
    expect(await refusal('data.xlsx', new Uint8Array([1, 2, 0, 4, 5, 0, 7]))).toMatch(
      /not a CSV or XLSX/,
    );
    expect(
      await refusal('old.xls', new Uint8Array([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])),
    ).toMatch(/old-format Excel file/);
    expect(await refusal('photos.xlsx', zip([{ name: 'a.txt', data: text('hi') }]))).toMatch(
      /ZIP archive, not an Excel workbook/,
    );
    expect(await refusal('empty.csv', new Uint8Array())).toMatch(/is empty/);
    expect(await refusal('names.csv', text('Customer,PO\nAcme,PO-1\n'))).toMatch(
      /no header naming a Container, BL or Booking column/,
    );
  });

  it('refuses a file over the size limit and a sheet over the row limit', async () => {
    expect(await refusal('huge.csv', new Uint8Array(MAX_SPREADSHEET_BYTES + 1).fill(65))).toMatch(
      /larger than 5 MB/,
    );
    // Blank lines between rows count for nothing, either way.
    const rows = Array.from({ length: MAX_SPREADSHEET_ROWS + 1 }, (_, i) => (i ? A : B));
    expect(await refusal('long.csv', text(`Container\n${rows.join('\n\n')}`))).toMatch(
      /more than 5,000 rows/,
    );
    // At the limit it reads, to the last row.
    const atLimit = await read('ok.csv', text(`Container\n${rows.slice(2).join('\n\n')}\n${B}`));
    expect(atLimit.rows.map((row) => row.number)).toEqual([A, B]);
    expect(atLimit.rows[1]!.sourceRows).toEqual([2 * (MAX_SPREADSHEET_ROWS - 1) + 1]);
    // A file of nothing but line ends is refused without reading it all into rows.
    expect(await refusal('blank.csv', text('\n'.repeat(MAX_SPREADSHEET_BYTES)))).toMatch(
      /no header naming/,
    );
  });

  it('refuses an XLSX that unpacks to far more than a sheet of numbers (a zip bomb)', async () => {
    const bomb = zip([
      { name: 'xl/workbook.xml', data: text('<workbook/>') },
      { name: 'xl/worksheets/sheet1.xml', data: new Uint8Array(MAX_UNZIPPED_BYTES + 1024) },
    ]);
    expect(bomb.byteLength).toBeLessThan(MAX_SPREADSHEET_BYTES);
    expect(await refusal('bomb.xlsx', bomb)).toMatch(/unpacks to more than 40 MB/);
  });

  it('refuses a damaged workbook with a sentence, not a crash', async () => {
    const bytes = await writeXlsxFile([[{ type: String, value: 'Container' }]]).toBuffer();
    expect(await refusal('cut.xlsx', bytes.subarray(0, bytes.length - 40))).toMatch(
      /damaged ZIP archive/,
    );
  });
});

/** The same number as someone might type it: lower case with a space. */
function a(number: string): string {
  return `${number.slice(0, 4).toLowerCase()} ${number.slice(4)}`;
}
