/**
 * The delivery order as a one-page PDF (pdf-lib, standard Helvetica): a title, the trucker it is
 * for, then one line per field of `orderLines` (the one home of what an order says).
 */
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { orderLines, type DeliveryOrder } from '../../shared/delivery-order';
import { formatDateTime } from '../../shared/date-style';

const PAGE = { width: 612, height: 792, margin: 56 };
const SIZE = 10;
const LINE = 16;
const LABEL_WIDTH = 130;

/** WinAnsi (the standard fonts' encoding) has Latin-1 and a few typographic marks. */
const WIN_ANSI_EXTRA = new Set([...'–—‘’“”•…€']);
const printable = (text: string) =>
  [...text].map((c) => (c.charCodeAt(0) < 256 || WIN_ANSI_EXTRA.has(c) ? c : '?')).join('');

export async function deliveryOrderPdf(order: DeliveryOrder): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle(`Delivery order ${order.containerNumber}`);
  doc.setCreator('Quayside');
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([PAGE.width, PAGE.height]);
  let y = PAGE.height - PAGE.margin;
  page.drawText('DELIVERY ORDER', { x: PAGE.margin, y, size: 18, font: bold });
  y -= LINE * 1.5;
  page.drawText(printable(`Made ${formatDateTime(order.madeAt, 'UTC')}`), {
    x: PAGE.margin,
    y,
    size: SIZE,
    font,
    color: rgb(0.4, 0.4, 0.4),
  });
  y -= LINE * 1.5;
  const width = PAGE.width - PAGE.margin * 2 - LABEL_WIDTH;
  for (const [label, value] of orderLines(order)) {
    page.drawText(printable(label), { x: PAGE.margin, y, size: SIZE, font: bold });
    // Long values (many reference numbers) wrap within the value column.
    let line = '';
    const flush = () => {
      page.drawText(line, { x: PAGE.margin + LABEL_WIDTH, y, size: SIZE, font });
      y -= LINE;
    };
    for (const word of printable(value).split(' ')) {
      const next = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(next, SIZE) > width) {
        flush();
        line = word;
      } else line = next;
    }
    flush();
  }
  return doc.save();
}
