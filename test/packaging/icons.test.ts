/**
 * The committed icons rendered from build/icon.svg by `npm run icons`: every size the platforms
 * ask for, in the formats each reads.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { APP_ICON_ICO, appIconPng, badgeOverlayPng } from '../../src/main/app-resources';

const BUILD = join(resolve(fileURLToPath(new URL('.', import.meta.url)), '../..'), 'build');
const SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024] as const;

/** Width and height from a PNG's IHDR chunk. */
function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file);
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

describe('app icons', () => {
  it('has a square PNG of every size, from 16 to 1024', () => {
    for (const size of SIZES) {
      expect(pngSize(appIconPng(size)), `${size}x${size}`).toEqual({ width: size, height: size });
    }
    expect(pngSize(join(BUILD, 'icon.png'))).toEqual({ width: 1024, height: 1024 });
  });

  it('has a Windows taskbar overlay for every count label', () => {
    for (const label of ['1', '2', '3', '4', '5', '6', '7', '8', '9', '9+'] as const) {
      expect(pngSize(badgeOverlayPng(label)), label).toEqual({ width: 32, height: 32 });
    }
  });

  it('has a Windows .ico with the small sizes and 256', () => {
    const ico = readFileSync(APP_ICON_ICO);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    // ICONDIRENTRY width byte: 0 means 256.
    const widths = Array.from({ length: count }, (_, i) => ico[6 + i * 16] || 256);
    expect(widths).toEqual(expect.arrayContaining([16, 32, 48, 256]));
  });

  it('has a macOS .icns up to 1024 (ic10)', () => {
    const icns = readFileSync(join(BUILD, 'icon.icns'));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.includes(Buffer.from('ic10'))).toBe(true);
  });
});
