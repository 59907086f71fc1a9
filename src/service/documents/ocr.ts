/**
 * Offline OCR with tesseract.js and the English traineddata shipped in @tesseract.js-data/eng
 * (nothing is downloaded at run time). Runs in the document reader's process
 * (document-worker.ts), whose time limit bounds each document; images over the budget's pixel
 * count are refused before decoding.
 */
import { createRequire } from 'node:module';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { DocumentReadError } from './budget';

const require = createRequire(import.meta.url);
const ENGLISH = require('@tesseract.js-data/eng') as { langPath: string; gzip: boolean };

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

/** Recognizes page images with one tesseract.js worker, started on first use. */
export class TesseractOcr {
  private worker: Promise<Worker> | null = null;

  private start(): Promise<Worker> {
    this.worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: ENGLISH.langPath,
      gzip: ENGLISH.gzip,
      cacheMethod: 'none',
    });
    return this.worker;
  }

  /** Text and mean word confidence (0..1) of each image (PNG, JPEG or PGM). */
  async read(
    images: Uint8Array[],
    maxPixels: number,
  ): Promise<{ text: string; confidence: number }[]> {
    const out: { text: string; confidence: number }[] = [];
    for (const image of images) {
      const size = imageSize(image);
      if (size && size.width * size.height > maxPixels) {
        throw new DocumentReadError(
          `The image is ${size.width}x${size.height} pixels; OCR reads at most ${maxPixels} pixels per page`,
        );
      }
      const worker = await this.start();
      try {
        const result = await worker.recognize(Buffer.from(image));
        out.push({ text: result.data.text, confidence: result.data.confidence / 100 });
      } catch (err) {
        throw new DocumentReadError(`The image could not be read: ${(err as Error).message}`);
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
