/**
 * `npm start` / `npm test` reinstall dependencies only when node_modules does not hold what the
 * lock file asks for, judged by content: file times (a copy, a checkout, a touch) never trigger
 * an `npm ci` under a running service.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const SETUP = new URL('../../scripts/lib/setup.mjs', import.meta.url).href;
const { dependenciesMatchLock } = (await import(SETUP)) as {
  dependenciesMatchLock: (projectRoot: string) => boolean;
};

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

const lock = (version: string) => ({
  name: 'tiny',
  lockfileVersion: 3,
  packages: {
    '': { name: 'tiny', dependencies: { leftpad: '^1.0.0' } },
    'node_modules/leftpad': { version },
  },
});

/** A tiny project: a lock file and node_modules installed from it by npm. */
function tinyProject(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quayside-setup-'));
  roots.push(root);
  fs.writeFileSync(path.join(root, 'package-lock.json'), JSON.stringify(lock('1.0.0')));
  fs.mkdirSync(path.join(root, 'node_modules', 'leftpad'), { recursive: true });
  const hidden = { ...lock('1.0.0'), packages: { 'node_modules/leftpad': { version: '1.0.0' } } };
  fs.writeFileSync(path.join(root, 'node_modules', '.package-lock.json'), JSON.stringify(hidden));
  return root;
}

const setTimes = (file: string, seconds: number) => fs.utimesSync(file, seconds, seconds);

describe('dependenciesMatchLock', () => {
  it('keeps node_modules that match the lock file even when it looks older', () => {
    const root = tinyProject();
    // node_modules from the past, the lock file touched now (as a copy or checkout leaves them).
    for (const entry of ['node_modules', 'node_modules/.package-lock.json', 'node_modules/leftpad'])
      setTimes(path.join(root, entry), 1_000_000);
    setTimes(path.join(root, 'package-lock.json'), Date.now() / 1000);
    expect(dependenciesMatchLock(root)).toBe(true);
    // The match is recorded, and survives the lock file being touched again.
    setTimes(path.join(root, 'package-lock.json'), Date.now() / 1000 + 60);
    expect(dependenciesMatchLock(root)).toBe(true);
  });

  it('asks for an install when the lock file content changes or node_modules is missing', () => {
    const root = tinyProject();
    expect(dependenciesMatchLock(root)).toBe(true);
    // Newer node_modules does not hide a changed lock file.
    fs.writeFileSync(path.join(root, 'package-lock.json'), JSON.stringify(lock('2.0.0')));
    setTimes(path.join(root, 'package-lock.json'), 1_000_000);
    expect(dependenciesMatchLock(root)).toBe(false);
    fs.rmSync(path.join(root, 'node_modules'), { recursive: true });
    expect(dependenciesMatchLock(root)).toBe(false);
  });
});
