/**
 * HTTP stays transport only: no function in src/service/api runs over 60 lines (a handler that
 * grows past that is holding a rule that belongs in its domain folder). Lines are counted from a
 * function's first line to its last, as an editor shows them.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const API_DIR = path.join(ROOT, 'src/service/api');
const MAX_LINES = 60;

interface LongFunction {
  where: string;
  lines: number;
}

/** Every function, method and arrow in `source` longer than `max` lines. */
export function longFunctions(fileName: string, source: string, max: number): LongFunction[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true);
  const found: LongFunction[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const end = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = end - start + 1;
      if (lines > max) found.push({ where: `${fileName}:${start + 1}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('route function length', () => {
  it('finds a function over the limit (the check can fail)', () => {
    const body = Array.from({ length: 61 }, (_, i) => `  const v${i} = ${i};`).join('\n');
    const source = `export function long() {\n${body}\n}\nconst short = () => 1;\n`;
    expect(longFunctions('probe.ts', source, MAX_LINES)).toEqual([
      { where: 'probe.ts:1', lines: 63 },
    ]);
    const arrow = `app.get('/x', async () => {\n${body}\n});\n`;
    expect(longFunctions('probe.ts', arrow, MAX_LINES)).toHaveLength(1);
  });

  it(`no function in src/service/api is over ${MAX_LINES} lines`, () => {
    const files = readdirSync(API_DIR).filter((name) => name.endsWith('.ts'));
    expect(files.length).toBeGreaterThan(0);
    const long = files.flatMap((name) =>
      longFunctions(
        `src/service/api/${name}`,
        readFileSync(path.join(API_DIR, name), 'utf8'),
        MAX_LINES,
      ),
    );
    expect(long).toEqual([]);
  });
});
