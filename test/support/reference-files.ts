/**
 * The workspace's read-only reference files (`shared/reference`), found next to the checkout or,
 * for a git worktree in a folder of worktrees, one level further up.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function referenceFile(name: string): string {
  const candidates = ['../../../shared', '../../../../shared'].map((up) =>
    fileURLToPath(new URL(`${up}/reference/${name}`, import.meta.url)),
  );
  return candidates.find((path) => existsSync(path)) ?? candidates[0]!;
}
