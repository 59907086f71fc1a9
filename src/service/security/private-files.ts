/**
 * The service's data folder and files are readable by their owner only: the folder 0700, the
 * SQLite database with its -wal/-shm files and every key file 0600. Applied on every start, so
 * folders and files made by older versions (0755/0644) are tightened too. No-ops on Windows,
 * where POSIX modes do not apply.
 */
import fs from 'node:fs';

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

const posix = process.platform !== 'win32';

/** Creates `dir` (and parents) if needed and makes it owner-only. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  if (posix) fs.chmodSync(dir, PRIVATE_DIR_MODE);
}

/** Makes existing files owner-only; missing ones are skipped. */
export function restrictFiles(...files: string[]): void {
  if (!posix) return;
  for (const file of files) {
    try {
      fs.chmodSync(file, PRIVATE_FILE_MODE);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  }
}

/** Creates `file` empty with owner-only mode unless it exists, then restricts it. */
export function touchPrivateFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', PRIVATE_FILE_MODE));
  restrictFiles(file);
}

/** Writes `content` to `file` atomically (temp file + rename) with owner-only mode. */
export function writePrivateFile(file: string, content: string | Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode: PRIVATE_FILE_MODE });
  restrictFiles(tmp);
  fs.renameSync(tmp, file);
}
