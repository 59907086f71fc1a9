/**
 * The app folder: the repository root in a checkout, `…/resources/app.asar` in an installed app.
 * Found by walking up to the nearest package.json, because the bundler may place this code in
 * out/main/*.js or in a shared chunk one level deeper.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function findAppRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`No package.json above ${start}`);
    dir = parent;
  }
}

export const APP_ROOT = findAppRoot(dirname(fileURLToPath(import.meta.url)));
