/**
 * Outside src/service/store no service file talks to the query builder: storage goes through the
 * store's owners, so another database engine plugs in at one place.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SERVICE = path.resolve(__dirname, '../../../src/service');
const STORE = path.join(SERVICE, 'store');

/**
 * Files that may still use the builder, each with the reason. Keep this list empty.
 */
const ALLOWED: Record<string, string> = {};

const QUERY_BUILDER = [
  /\.selectFrom\(/,
  /\.insertInto\(/,
  /\.updateTable\(/,
  /\.deleteFrom\(/,
  /\.replaceInto\(/,
  /\.transaction\(\)/,
  /\bsql\s*(<[^>]*>)?\s*`/,
  /\bfrom 'kysely'/,
  /\.executeQuery\(/,
  // The raw database handle: the store opens it (store/open.ts) and hands out owners.
  /\b(ctx|context|this|deps|options|opened|storage)\.db\b/,
];

function serviceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === STORE ? [] : serviceFiles(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('service storage boundary', () => {
  it('no service file outside src/service/store uses the query builder', () => {
    const offenders: string[] = [];
    for (const file of serviceFiles(SERVICE)) {
      const relative = path.relative(SERVICE, file).split(path.sep).join('/');
      if (relative in ALLOWED) continue;
      const text = readFileSync(file, 'utf8');
      const lines = text.split('\n');
      lines.forEach((line, i) => {
        // `import type` of Kysely types (e.g. the EventSink's transaction) carries no queries.
        if (/^import type /.test(line)) return;
        if (QUERY_BUILDER.some((pattern) => pattern.test(line))) {
          offenders.push(`${relative}:${i + 1}: ${line.trim()}`);
        }
      });
    }
    expect(offenders).toEqual([]);
  });

  it('the allow-list names only files that still exist', () => {
    const present = new Set(
      serviceFiles(SERVICE).map((f) => path.relative(SERVICE, f).split(path.sep).join('/')),
    );
    expect(Object.keys(ALLOWED).filter((f) => !present.has(f))).toEqual([]);
  });
});
