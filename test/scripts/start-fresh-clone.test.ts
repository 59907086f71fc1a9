/**
 * The README's first command on a fresh clone: `npm start` must reach its dependency install
 * before it needs any dependency (it once required `electron/package.json` at import and crashed
 * before installing anything), and must not try Electron's runtime download where that address
 * does not answer. The package manager is the outer edge here: a stand-in `npm` on PATH records
 * how it was called. `npm start -- --check` on the built checkout then serves the page for real.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
});

/** What a clone holds before `npm start`: the scripts and the package files, no node_modules. */
function freshClone(): string {
  const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-clone-'));
  folders.push(clone);
  fs.cpSync(path.join(ROOT, 'scripts'), path.join(clone, 'scripts'), { recursive: true });
  for (const file of ['package.json', 'package-lock.json']) {
    fs.copyFileSync(path.join(ROOT, file), path.join(clone, file));
  }
  return clone;
}

/** A stand-in `npm` that logs its arguments and the Electron download switch, then fails. */
function recordingNpm(): { bin: string; log: string } {
  const bin = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-npm-'));
  folders.push(bin);
  const log = path.join(bin, 'calls.log');
  fs.writeFileSync(
    path.join(bin, 'npm'),
    `#!/bin/sh\necho "$* skip=$ELECTRON_SKIP_BINARY_DOWNLOAD" >> '${log}'\nexit 1\n`,
    { mode: 0o755 },
  );
  return { bin, log };
}

describe('npm start on a fresh clone', () => {
  it.skipIf(process.platform === 'win32')(
    'goes straight to one install without the unreachable Electron download',
    () => {
      const clone = freshClone();
      const npm = recordingNpm();
      const env: Record<string, string | undefined> = {
        ...process.env,
        PATH: `${npm.bin}${path.delimiter}${process.env.PATH ?? ''}`,
        // Refused at once: the runtime's download address does not answer.
        ELECTRON_MIRROR: 'http://127.0.0.1:9/',
      };
      delete env.ELECTRON_SKIP_BINARY_DOWNLOAD;
      const result = spawnSync(process.execPath, ['scripts/start.mjs', '--check'], {
        cwd: clone,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      const output = `${result.stdout}${result.stderr}`;
      expect(output).not.toMatch(/Cannot find module/);
      expect(output).toMatch(
        /Installing without the Electron runtime: its download does not answer/,
      );
      expect(output).toMatch(/npm ci failed/);
      expect(result.status).toBe(1);
      expect(fs.readFileSync(npm.log, 'utf8').trim().split('\n')).toEqual([
        'ci --no-audit --no-fund skip=1',
      ]);
    },
  );

  it('--check serves the app page from the built checkout and exits 0', () => {
    const result = spawnSync(process.execPath, ['scripts/start.mjs', '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 300_000,
    });
    expect(result.stderr).not.toMatch(/TypeError|Error:/);
    expect(result.stdout).toMatch(/Quayside is running at http:\/\/127\.0\.0\.1:\d+\//);
    expect(result.stdout).toMatch(/Check passed: the app served its page and \S+\.js/);
    expect(result.status).toBe(0);
  }, 320_000);
});
