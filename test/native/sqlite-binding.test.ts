import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ADDON_FILE,
  electronAddonDir,
  MissingElectronSqliteError,
  REBUILD_COMMAND,
  sqliteBindingPath,
  sqliteOptions,
} from '../../src/native/sqlite-binding';
import { findAppRoot } from '../../src/native/app-root';

const roots: string[] = [];
function tempRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'quayside-binding-'));
  roots.push(root);
  return root;
}
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

const electron = { electron: '39.8.10', modules: '140' };

describe('the SQLite binding for the current runtime', () => {
  it('uses better-sqlite3’s own Node build under Node, and that build opens a database', () => {
    expect(sqliteBindingPath()).toBeUndefined();
    expect(sqliteOptions()).toEqual({});
    const db = new Database(':memory:', sqliteOptions());
    expect(db.prepare('select 1 as one').get()).toEqual({ one: 1 });
    db.close();
  });

  it('under Electron without its build, says in plain words which command fixes it', () => {
    const root = tempRoot();
    expect(() => sqliteBindingPath(electron, root)).toThrow(MissingElectronSqliteError);
    expect(() => sqliteBindingPath(electron, root)).toThrow(
      `The SQLite module for Electron 39.8.10 is not built`,
    );
    expect(() => sqliteOptions(electron, root)).toThrow(`Run \`${REBUILD_COMMAND}\` once`);
  });

  it('under Electron with its build present, passes that build’s path as nativeBinding', () => {
    const root = tempRoot();
    const dir = electronAddonDir(root, '140');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, ADDON_FILE), '');
    expect(sqliteOptions(electron, root)).toEqual({ nativeBinding: join(dir, ADDON_FILE) });
  });

  it('keeps one build per Electron ABI: a build for another ABI is not picked up', () => {
    const root = tempRoot();
    const other = electronAddonDir(root, '130');
    mkdirSync(other, { recursive: true });
    writeFileSync(join(other, ADDON_FILE), '');
    expect(() => sqliteBindingPath(electron, root)).toThrow(MissingElectronSqliteError);
  });

  it('inside an installed app, loads the addon from the unpacked folder beside app.asar', () => {
    const root = tempRoot();
    const unpackedDir = electronAddonDir(join(root, 'app.asar.unpacked'), '140');
    mkdirSync(unpackedDir, { recursive: true });
    writeFileSync(join(unpackedDir, ADDON_FILE), '');
    expect(sqliteBindingPath(electron, join(root, 'app.asar'))).toBe(join(unpackedDir, ADDON_FILE));
  });
});

describe('the app folder', () => {
  it('is the nearest folder above with a package.json, however deep the bundle sits', () => {
    const root = tempRoot();
    writeFileSync(join(root, 'package.json'), '{}');
    const chunkDir = join(root, 'out', 'main', 'chunks');
    mkdirSync(chunkDir, { recursive: true });
    expect(findAppRoot(chunkDir)).toBe(root);
    expect(findAppRoot(join(root, 'out', 'main'))).toBe(root);
  });
});
