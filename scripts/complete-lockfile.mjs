// Completes package-lock.json with the other platforms' optional native packages.
//
// The npm registry reachable from this project's machines serves only the current platform's
// native builds (e.g. @rollup/rollup-linux-x64-gnu); npm then writes a lock file without the
// other platforms' entries, and `npm ci` rejects that same file as out of sync. Adding the
// missing optional entries (version only) makes the lock whole again: npm ci skips optional
// packages that do not fit or cannot be fetched. Idempotent; run after every `npm install`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from './lib/setup.mjs';

const path = join(root, 'package-lock.json');
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;
let added = 0;
for (const [location, entry] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(entry.optionalDependencies ?? {})) {
    // npm resolves a dependency in the nearest node_modules up the tree.
    const parts =
      location === ''
        ? []
        : location.split('/node_modules/').map((p) => p.replace(/^node_modules\//, ''));
    const lookups = [];
    for (let depth = parts.length; depth >= 0; depth--) {
      const prefix = parts
        .slice(0, depth)
        .map((p) => `node_modules/${p}/`)
        .join('');
      lookups.push(`${prefix}node_modules/${name}`);
    }
    if (lookups.some((candidate) => packages[candidate])) continue;
    packages[`node_modules/${name}`] = {
      version: range.replace(/^[~^=]/, ''),
      dev: entry.dev,
      optional: true,
    };
    added++;
  }
}
if (added > 0) {
  writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
  console.error(`package-lock.json: added ${added} optional platform entries`);
}
