/**
 * The desktop's data is private to its user: the data folder 0700, every file in it 0600 (the
 * board cache, documents.sqlite and their -wal/-shm), whatever the umask (022 made them 0755 and
 * 0644), for the app's caches and for `quayside sync --data-dir`; a folder an older version left
 * open is closed when the app or sync starts.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { Cache } from '../../src/main/cache/cache';
import { DocumentCache } from '../../src/main/cache/document-cache';
import { privateDataDir } from '../../src/main/private-data';
import { tempDir } from '../support/cache-fixtures';
import { smallServiceForFile } from '../support/sync-harness';

const CLI = fileURLToPath(new URL('../../bin/quayside.mjs', import.meta.url));
const mode = (path: string) => statSync(path).mode & 0o777;

/** Every file and folder under `dir` (the folder itself included) with its mode, in octal. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': mode(dir).toString(8) };
  const walk = (path: string, name: string) => {
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (entry.isSymbolicLink()) continue;
      const key = name ? `${name}/${entry.name}` : entry.name;
      out[key] = mode(join(path, entry.name)).toString(8);
      if (entry.isDirectory()) walk(join(path, entry.name), key);
    }
  };
  walk(dir, '');
  return out;
}
const allPrivate = (dir: string) =>
  Object.fromEntries(
    Object.entries(modes(dir)).map(([name]) => [
      name,
      name === '.' || statSync(join(dir, name)).isDirectory() ? '700' : '600',
    ]),
  );

const temps: { remove(): void }[] = [];
const temp = () => {
  const t = tempDir('quayside-private-');
  temps.push(t);
  return t.dir;
};
const startingUmask = process.umask();
afterEach(() => {
  process.umask(startingUmask);
  for (const t of temps.splice(0)) t.remove();
});

describe('private data folder', () => {
  it('makes the caches and their -wal/-shm files 0600 in a 0700 folder under umask 022', () => {
    process.umask(0o022);
    const dir = join(temp(), 'data');
    const cache = Cache.open(dir);
    const documents = DocumentCache.open(dir);
    documents.writeFile('doc-1', Buffer.from('%PDF-1.7\n'));
    try {
      for (const file of ['quayside-cache.sqlite', 'documents.sqlite']) {
        for (const companion of ['', '-wal', '-shm']) {
          expect(existsSync(join(dir, file + companion)), file + companion).toBe(true);
        }
      }
      expect(modes(dir)).toEqual(allPrivate(dir));
      expect(mode(dir)).toBe(0o700);
      expect(mode(join(dir, 'quayside-cache.sqlite-wal'))).toBe(0o600);
    } finally {
      cache.close();
      documents.close();
    }
  });

  it('closes a folder an older version left readable, files and folders inside it too', () => {
    const dir = temp();
    chmodSync(dir, 0o755);
    for (const file of ['quayside-cache.sqlite', 'quayside-cache.sqlite-wal', 'settings.json']) {
      writeFileSync(join(dir, file), 'x', { mode: 0o644 });
    }
    mkdirSync(join(dir, 'documents'), { mode: 0o755 });
    writeFileSync(join(dir, 'documents', 'doc-1'), 'x', { mode: 0o644 });
    // A link is left alone: what it points at may not be the app's.
    const outside = join(temp(), 'outside.txt');
    writeFileSync(outside, 'x', { mode: 0o644 });
    symlinkSync(outside, join(dir, 'link'));

    privateDataDir(dir);
    expect(modes(dir)).toEqual({
      '.': '700',
      'quayside-cache.sqlite': '600',
      'quayside-cache.sqlite-wal': '600',
      'settings.json': '600',
      documents: '700',
      'documents/doc-1': '600',
    });
    expect(mode(outside)).toBe(0o644);
  });
});

describe('quayside sync --data-dir', () => {
  const service = smallServiceForFile();

  it('writes a private folder under umask 022', async () => {
    const h = service();
    const dir = join(temp(), 'synced');
    const result = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        '/bin/sh',
        ['-c', 'umask 022 && exec "$0" "$@"', process.execPath, CLI, 'sync'].concat([
          '--base-url',
          h.baseUrl,
          '--data-dir',
          dir,
        ]),
        { env: { ...process.env, QUAYSIDE_API_KEY: h.apiKey }, timeout: 120_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/synced \d+ shipments/);
    expect(modes(dir)).toEqual(allPrivate(dir));
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, 'quayside-cache.sqlite'))).toBe(0o600);
  });
});
