/**
 * Runs an ES module script in a fresh Node process, with tsx so that it may import our sources,
 * and tells how the process ended: whether it ends by itself is what such a test looks at. The
 * script is a file, not `-e` text: `--input-type`, which text needs, is passed on to the
 * process's worker threads, where it refuses a built worker's file.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface ScriptEnd {
  /** The exit code; null when the process was ended by a signal. */
  code: number | null;
  /** Killed at `timeoutMs`: it did not end by itself. */
  killed: boolean;
  stdout: string;
  stderr: string;
}

export async function runModuleScript(script: string, timeoutMs = 60_000): Promise<ScriptEnd> {
  const dir = mkdtempSync(join(tmpdir(), 'quayside-script-'));
  const file = join(dir, 'script.mjs');
  writeFileSync(file, script);
  try {
    return await new Promise<ScriptEnd>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', file],
        { timeout: timeoutMs },
        (error, stdout, stderr) =>
          resolve({ code: child.exitCode, killed: !!error?.killed, stdout, stderr }),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
