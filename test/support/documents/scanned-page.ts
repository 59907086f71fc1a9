/**
 * A scanned-looking page: an arrival notice's text rendered by Debian's chromium (the browser
 * the end-to-end tests use) into a PNG, on off-white paper, slightly skewed, with no text layer.
 */
import { chromium } from '@playwright/test';
import { ARRIVAL } from './generated-pdfs';

export async function scannedArrivalNoticePng(): Promise<Uint8Array> {
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width: 1000, height: 560 } });
    await page.setContent(`<body style="margin:0;background:#efeae0">
      <div style="font:24px 'DejaVu Sans Mono', monospace;color:#262626;padding:36px;transform:rotate(0.4deg)">
        <h2>ARRIVAL NOTICE</h2>
        <p>B/L No: ${ARRIVAL.bl}</p>
        <p>Vessel: ${ARRIVAL.vessel} Voyage: ${ARRIVAL.voyage}</p>
        <p>${ARRIVAL.containers[0]} 40HC</p>
        <p>Last Free Day: ${ARRIVAL.lfd}</p>
      </div></body>`);
    return await page.screenshot({ type: 'png' });
  } finally {
    await browser.close();
  }
}
