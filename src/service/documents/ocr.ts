/**
 * Offline OCR with tesseract.js and the English traineddata shipped in @tesseract.js-data/eng
 * (nothing is downloaded at run time). Recognition runs in tesseract.js's worker thread; each
 * page is bounded in time (the worker is terminated and replaced when a page takes too long)
 * and in memory (images over MAX_OCR_PIXELS are refused before decoding).
 */
import { createRequire } from 'node:module';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { DocumentReadError } from './pdf-text';
import type { OcrEngine } from './service';

const require = createRequire(import.meta.url);
const ENGLISH = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };

/** About an A4 page at 400 dpi. */
export const MAX_OCR_PIXELS = 20_000_000;
export const OCR_PAGE_TIMEOUT_MS = 60_000;

/** Width and height from a PNG header or a JPEG frame header; null when not found. */
export function imageSize(bytes: Uint8Array): { width: number; height: number } | null {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length > 24 && b.readUInt32BE(0) === 0x89504e47) {
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  }
  if (b[0] === 0xff && b[1] === 0xd8) {
    let at = 2;
    while (at + 9 < b.length && b[at] === 0xff) {
      const marker = b[at + 1]!;
      const length = b.readUInt16BE(at + 2);
      // SOF0..SOF15 except DHT (C4), JPG (C8) and DAC (CC) carry the frame size.
      if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) {
        return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
      }
      at += 2 + length;
    }
  }
  return null;
}

/** Raw pixels (1, 3 or 4 channels) as a binary PGM image, which tesseract reads directly. */
export function grayscalePgm(image: {
  data: Uint8ClampedArray | Uint8Array;
  width: number;
  height: number;
  channels: number;
}): Buffer {
  const { data, width, height, channels } = image;
  const header = Buffer.from(`P5\n${width} ${height}\n255\n`, 'latin1');
  const out = Buffer.alloc(header.length + width * height);
  header.copy(out);
  for (let i = 0, o = header.length; i < width * height; i++, o++) {
    const p = i * channels;
    out[o] =
      channels >= 3
        ? Math.round(0.299 * data[p]! + 0.587 * data[p + 1]! + 0.114 * data[p + 2]!)
        : data[p]!;
  }
  return out;
}

export class TesseractOcr implements OcrEngine {
  private worker: Promise<Worker> | null = null;

  constructor(private readonly timeoutMs = OCR_PAGE_TIMEOUT_MS) {}

  private start(): Promise<Worker> {
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: ENGLISH.langPath,
      gzip: ENGLISH.gzip,
      cacheMethod: 'none',
    });
    return this.worker;
  }

  async read(images: Uint8Array[]): Promise<{ text: string; confidence: number }[]> {
    const out: { text: string; confidence: number }[] = [];
    for (const image of images) {
      const size = imageSize(image);
      if (size && size.width * size.height > MAX_OCR_PIXELS) {
        throw new DocumentReadError(
          `The image is ${size.width}x${size.height} pixels; OCR reads at most ${MAX_OCR_PIXELS} pixels per page`,
        );
      }
      const worker = await this.start();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(
              new DocumentReadError(`OCR of a page took longer than ${this.timeoutMs / 1000} s`),
            ),
          this.timeoutMs,
        );
      });
      try {
        const result = await Promise.race([worker.recognize(Buffer.from(image)), timeout]);
        out.push({ text: result.data.text, confidence: result.data.confidence / 100 });
      } catch (err) {
        // A timed-out or failed worker is replaced for the next page.
        this.worker = null;
        await worker.terminate().catch(() => {});
        if (err instanceof DocumentReadError) throw err;
        throw new DocumentReadError(`The image could not be read: ${(err as Error).message}`);
      } finally {
        clearTimeout(timer);
      }
    }
    return out;
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await (await worker).terminate();
  }
}
