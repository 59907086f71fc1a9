import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SIZE,
  parseWindowState,
  restoreBounds,
  WindowStateFile,
} from '../../../src/main/desktop/window-bounds';

const laptop = { x: 0, y: 0, width: 1920, height: 1040 };
const rightMonitor = { x: 1920, y: 0, width: 2560, height: 1400 };

describe('remembered window bounds', () => {
  it('reopens where it was on a display that is still attached', () => {
    const saved = { bounds: { x: 2100, y: 100, width: 1600, height: 1000 }, maximized: true };
    expect(restoreBounds(saved, [laptop, rightMonitor])).toEqual(saved);
  });

  it('opens centred on the primary display when the saved display is gone', () => {
    const saved = { bounds: { x: 2100, y: 100, width: 1600, height: 1000 }, maximized: false };
    expect(restoreBounds(saved, [laptop])).toEqual({
      bounds: {
        x: (1920 - DEFAULT_SIZE.width) / 2,
        y: (1040 - DEFAULT_SIZE.height) / 2,
        ...DEFAULT_SIZE,
      },
      maximized: false,
    });
  });

  it('pulls a window hanging off the edge back on and shrinks it to the display', () => {
    const saved = { bounds: { x: 1700, y: 300, width: 3000, height: 900 }, maximized: false };
    expect(restoreBounds(saved, [laptop])).toEqual({
      bounds: { x: 0, y: 140, width: 1920, height: 900 },
      maximized: false,
    });
  });

  it('does not trust a position whose title bar is above every display', () => {
    const saved = { bounds: { x: 100, y: -200, width: 1200, height: 900 }, maximized: false };
    expect(restoreBounds(saved, [laptop]).bounds).toEqual({
      x: (1920 - DEFAULT_SIZE.width) / 2,
      y: (1040 - DEFAULT_SIZE.height) / 2,
      ...DEFAULT_SIZE,
    });
  });

  it('treats a malformed file as no saved state', () => {
    expect(parseWindowState({ bounds: { x: 'a', y: 0, width: 10, height: 10 } })).toBeNull();
    expect(parseWindowState({ bounds: { x: 0, y: 0, width: -5, height: 10 } })).toBeNull();
    expect(parseWindowState(null)).toBeNull();
  });
});

describe('WindowStateFile', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('keeps the state across launches and ignores a corrupted file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'quayside-window-'));
    dirs.push(dir);
    const file = new WindowStateFile(join(dir, 'window-state.json'));
    expect(file.read()).toBeNull();
    const state = { bounds: { x: 10, y: 20, width: 1200, height: 800 }, maximized: false };
    file.write(state);
    expect(new WindowStateFile(file.path).read()).toEqual(state);
    writeFileSync(file.path, '{not json');
    expect(file.read()).toBeNull();
  });
});
