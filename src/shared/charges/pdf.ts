/**
 * The D&D statement as a PDF (pdf-lib, standard Helvetica): the header, each charge's free time,
 * its days with the disputed ones marked, the dispute summary and the 46 CFR 541.6 invoice
 * fields beside what Quayside knows. No Node imports: the renderer loads this file on demand.
 */
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { ChargeSection, ChargesStatement } from './statement';

const PAGE = { width: 612, height: 792, margin: 48 };
const SIZE = 9;
const LINE = 12.5;
const RED = rgb(0.7, 0.1, 0.1);
const GREY = rgb(0.4, 0.4, 0.4);

/** WinAnsi (the standard fonts' encoding) has Latin-1 and a few typographic marks. */
const WIN_ANSI_EXTRA = new Set([...'–—‘’“”•…€']);
const printable = (text: string) =>
  [...text].map((c) => (c.charCodeAt(0) < 256 || WIN_ANSI_EXTRA.has(c) ? c : '?')).join('');

const money = (amount: number, currency: string) =>
  `${currency} ${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

class Writer {
  private page: PDFPage;
  private y: number;
  constructor(
    private readonly doc: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  private room(lines: number) {
    if (this.y - lines * LINE >= PAGE.margin) return;
    this.page = this.doc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
  }

  /** Words wrapped to the width left of `x`. */
  private wrap(text: string, font: PDFFont, size: number, width: number): string[] {
    const lines: string[] = [];
    let line = '';
    for (const word of printable(text).split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(next, size) > width) {
        lines.push(line);
        line = word;
      } else line = next;
    }
    if (line) lines.push(line);
    return lines;
  }

  text(
    text: string,
    options: { x?: number; bold?: boolean; size?: number; color?: ReturnType<typeof rgb> } = {},
  ) {
    const x = PAGE.margin + (options.x ?? 0);
    const size = options.size ?? SIZE;
    const font = options.bold ? this.bold : this.font;
    for (const line of this.wrap(text, font, size, PAGE.width - PAGE.margin - x)) {
      this.room(1);
      this.page.drawText(line, { x, y: this.y, size, font, color: options.color ?? rgb(0, 0, 0) });
      this.y -= LINE * (size / SIZE);
    }
  }

  /** One row of cells at fixed offsets, on one line (cells are short). */
  row(
    cells: readonly [number, string][],
    options: { bold?: boolean; color?: ReturnType<typeof rgb> } = {},
  ) {
    this.room(1);
    for (const [x, text] of cells) {
      this.page.drawText(printable(text), {
        x: PAGE.margin + x,
        y: this.y,
        size: SIZE,
        font: options.bold ? this.bold : this.font,
        color: options.color ?? rgb(0, 0, 0),
      });
    }
    this.y -= LINE;
  }

  backOneLine() {
    this.y += LINE;
  }

  gap(lines = 0.6) {
    this.y -= LINE * lines;
  }
}

const DAY_COLUMNS = [0, 78, 110, 150, 215] as const;

function section(w: Writer, s: ChargeSection) {
  w.gap();
  w.text(
    s.kind === 'demurrage'
      ? `Demurrage (billed by ${s.billedBy})`
      : `Detention / per diem (billed by ${s.billedBy})`,
    {
      bold: true,
      size: 11,
    },
  );
  w.text(
    `Free time ${s.freeTimeStart ?? '?'} to ${s.freeTimeEnd ?? '?'}` +
      (s.freeDays !== null ? ` (${s.freeDays} days)` : '') +
      `, calendar days of ${s.zone}. ${s.tariffRule}.`,
  );
  for (const note of s.notes) w.text(note, { color: GREY });
  if (s.days.length === 0) {
    w.text('No day charged.', { color: GREY });
  } else {
    w.gap(0.3);
    w.row(
      [
        [DAY_COLUMNS[0], 'Date'],
        [DAY_COLUMNS[1], 'Day'],
        [DAY_COLUMNS[2], 'Rate'],
        [DAY_COLUMNS[3], 'Amount'],
        [DAY_COLUMNS[4], 'Facts / dispute'],
      ],
      { bold: true },
    );
    for (const day of s.days) {
      w.row(
        [
          [DAY_COLUMNS[0], `${day.weekday} ${day.date}`],
          [DAY_COLUMNS[1], String(day.dayNumber)],
          [DAY_COLUMNS[2], day.rate.toFixed(2)],
          [DAY_COLUMNS[3], day.amount.toFixed(2)],
        ],
        day.dispute ? { color: RED } : {},
      );
      // The facts and the dispute start on the row's line, wrapped in the last column.
      w.backOneLine();
      if (day.dispute)
        w.text(`DISPUTE: ${day.dispute.reasons.join('; ')}`, { x: DAY_COLUMNS[4], color: RED });
      w.text(day.facts.join('; ') || '—', { x: DAY_COLUMNS[4], color: GREY });
    }
  }
  w.gap(0.3);
  w.text(
    `Total ${money(s.total, s.currency)} (${s.totalSource === 'terminal' ? 'as the terminal reports' : 'tariff estimate'})` +
      (s.disputedAmount > 0 ? `; disputed ${money(s.disputedAmount, s.currency)}` : ''),
    { bold: true },
  );
  for (const run of s.disputes) {
    w.text(`• ${run.summary}: ${money(run.amount, s.currency)}. ${run.evidence.join('; ')}`, {
      x: 8,
      color: RED,
    });
  }
  w.gap(0.3);
  w.text('Invoice contents required by 46 CFR 541.6', { bold: true });
  for (const field of s.invoiceFields) {
    w.text(`${field.label}: ${field.value ?? '— must be stated on the invoice'}`, {
      x: 8,
      color: field.value === null ? GREY : rgb(0, 0, 0),
    });
  }
}

export async function statementPdf(s: ChargesStatement): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`D&D statement ${s.containerNumber ?? ''}`.trim());
  doc.setCreator('Quayside');
  const w = new Writer(
    doc,
    await doc.embedFont(StandardFonts.Helvetica),
    await doc.embedFont(StandardFonts.HelveticaBold),
  );
  w.text(`Demurrage and detention statement: ${s.containerNumber ?? ''}`, { bold: true, size: 14 });
  w.gap(0.4);
  w.text(
    [
      `Bill of lading ${s.billOfLading ?? '—'}`,
      `Line ${s.lineName ?? s.lineScac ?? '—'}`,
      `Terminal ${s.terminalName ?? '—'}`,
      `Port of discharge ${s.portOfDischarge ?? '—'}`,
      `Customer ${s.customer ?? '—'}`,
    ].join(' · '),
  );
  w.text(`As of ${s.generatedAt.slice(0, 16).replace('T', ' ')} UTC`, { color: GREY });
  if (s.demurrage) section(w, s.demurrage);
  if (s.detention) section(w, s.detention);
  w.gap();
  if (s.total)
    w.text(`Statement total ${money(s.total.amount, s.total.currency)}`, { bold: true, size: 11 });
  if (s.disputed && s.disputed.amount > 0)
    w.text(`Disputed ${money(s.disputed.amount, s.disputed.currency)}`, { bold: true, color: RED });
  if (s.invoice) {
    w.text(
      `Invoice received: ${money(s.invoice.amount, s.invoice.currency)} dated ${s.invoice.date}; ` +
        `dispute by ${s.invoice.disputeBy}` +
        (s.invoice.difference !== null
          ? `; ${money(Math.abs(s.invoice.difference), s.invoice.currency)} ${s.invoice.difference >= 0 ? 'above' : 'below'} this statement`
          : ''),
    );
  }
  return doc.save();
}
