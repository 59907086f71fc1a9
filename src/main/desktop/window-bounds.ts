/**
 * The main window's size and position, remembered between launches and checked against the
 * displays attached now: a window saved on a monitor that is gone, or a corrupted file, falls
 * back to a default size on the primary display instead of opening off-screen.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface WindowState {
  bounds: Rectangle;
  maximized: boolean;
}

export const DEFAULT_SIZE = { width: 1360, height: 860 };
export const MIN_SIZE = { width: 1024, height: 640 };
/** At least this much of the title bar must be on a display for the saved position to count. */
const MIN_VISIBLE = { width: 120, height: 40 };

const isInteger = (value: unknown): value is number =>
  typeof value === 'number' && Number.isSafeInteger(value);

/** Parses a stored state; anything malformed is null. */
export function parseWindowState(raw: unknown): WindowState | null {
  if (!raw || typeof raw !== 'object') return null;
  const { bounds, maximized } = raw as { bounds?: Partial<Rectangle>; maximized?: unknown };
  if (!bounds || typeof bounds !== 'object') return null;
  const { x, y, width, height } = bounds;
  if (!isInteger(x) || !isInteger(y) || !isInteger(width) || !isInteger(height)) return null;
  if (width <= 0 || height <= 0) return null;
  return { bounds: { x, y, width, height }, maximized: maximized === true };
}

function overlap(a: Rectangle, b: Rectangle): Rectangle | null {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const right = Math.min(a.x + a.width, b.x + b.width);
  const bottom = Math.min(a.y + a.height, b.y + b.height);
  return right > x && bottom > y ? { x, y, width: right - x, height: bottom - y } : null;
}

/**
 * The bounds to open the window with. `workAreas`: the displays' work areas, primary first.
 * A saved window keeps its place when enough of its title bar is on one display, shrunk to fit
 * that display; otherwise it opens at the default size centred on the primary display.
 */
export function restoreBounds(
  saved: WindowState | null,
  workAreas: readonly Rectangle[],
): WindowState {
  const primary = workAreas[0] ?? { x: 0, y: 0, ...DEFAULT_SIZE };
  if (saved) {
    const titleBar = { ...saved.bounds, height: Math.min(saved.bounds.height, MIN_VISIBLE.height) };
    const display = workAreas.find((area) => {
      const visible = overlap(titleBar, area);
      return (
        visible !== null && visible.width >= MIN_VISIBLE.width && visible.height >= titleBar.height
      );
    });
    if (display) {
      const width = Math.min(Math.max(saved.bounds.width, MIN_SIZE.width), display.width);
      const height = Math.min(Math.max(saved.bounds.height, MIN_SIZE.height), display.height);
      const x = Math.min(Math.max(saved.bounds.x, display.x), display.x + display.width - width);
      const y = Math.min(Math.max(saved.bounds.y, display.y), display.y + display.height - height);
      return { bounds: { x, y, width, height }, maximized: saved.maximized };
    }
  }
  const width = Math.min(DEFAULT_SIZE.width, primary.width);
  const height = Math.min(DEFAULT_SIZE.height, primary.height);
  return {
    bounds: {
      x: primary.x + Math.round((primary.width - width) / 2),
      y: primary.y + Math.round((primary.height - height) / 2),
      width,
      height,
    },
    maximized: saved?.maximized ?? false,
  };
}

/** window-state.json in the data folder, written atomically. */
export class WindowStateFile {
  constructor(readonly path: string) {}

  read(): WindowState | null {
    try {
      return parseWindowState(JSON.parse(readFileSync(this.path, 'utf8')));
    } catch {
      return null;
    }
  }

  write(state: WindowState): void {
    mkdirSync(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(state)}\n`);
    renameSync(temporary, this.path);
  }
}
