/**
 * No import circles in src: a module in a circle can be read before it has finished loading
 * (undefined exports at start-up), and a circle is two modules that cannot be understood apart.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importCircles } from '../support/import-graph';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const scratch = mkdtempSync(path.join(os.tmpdir(), 'quayside-circles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('import circles', () => {
  it('src has none', () => {
    expect(importCircles(ROOT, path.join(ROOT, 'src'))).toEqual([]);
  });

  it('are found through a folder index, and type-only imports are not circles', () => {
    mkdirSync(path.join(scratch, 'a'));
    writeFileSync(path.join(scratch, 'a', 'index.ts'), "export { b } from '../b';\n");
    writeFileSync(path.join(scratch, 'b.ts'), "import { c } from './c';\nexport const b = c;\n");
    writeFileSync(path.join(scratch, 'c.ts'), "import { a } from './a';\nexport const c = a;\n");
    writeFileSync(
      path.join(scratch, 'd.ts'),
      "import type { e } from './e';\nexport const d = 1;\n",
    );
    writeFileSync(path.join(scratch, 'e.ts'), "import { d } from './d';\nexport const e = d;\n");
    expect(importCircles(scratch)).toEqual([['a/index.ts', 'b.ts', 'c.ts']]);
  });
});
