/**
 * The workspace's read-only reference files (`shared/reference`), never copied into the
 * repository: found next to the checkout or, for a git worktree in a folder of worktrees, one
 * level further up; `QUAYSIDE_REFERENCE_DIR` names the folder for a clone kept elsewhere.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function referenceFile(name: string): string {
  const fromEnv = process.env.QUAYSIDE_REFERENCE_DIR;
  const candidates = fromEnv
    ? [join(fromEnv, name)]
    : ['../../../shared', '../../../../shared'].map((up) =>
        fileURLToPath(new URL(`${up}/reference/${name}`, import.meta.url)),
      );
  const found = candidates.find((path) => existsSync(path));
  if (found) return found;
  // Said plainly: a clone outside the workspace otherwise fails with a bare ENOENT.
  throw new Error(
    `reference file ${name} not found (looked in ${candidates.join(', ')}); ` +
      'set QUAYSIDE_REFERENCE_DIR to the folder that holds it',
  );
}
