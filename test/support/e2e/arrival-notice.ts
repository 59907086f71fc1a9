/**
 * A generated arrival notice naming a shipment of the simulated world (never a real customer's
 * document), laid out like the service's own test documents: header page, then containers.
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';

export async function arrivalNoticeFor(shipment: {
  billOfLading: string;
  containers: readonly string[];
}): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const pages = [
    [
      'ARRIVAL NOTICE',
      'Freight release pending',
      `B/L No: ${shipment.billOfLading}`,
      'Port of discharge: Charleston, SC',
    ],
    [
      'Container details',
      ...shipment.containers.map((number) => `${number}  40HC  12,400 KG`),
      'Last Free Day: 2026-02-09',
    ],
  ];
  for (const lines of pages) {
    const page = pdf.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 40, y: 790 - i * 18, size: 11, font }));
  }
  return pdf.save();
}
