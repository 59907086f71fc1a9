/**
 * The desktop's data is private to the user running Quayside: its data folder is 0700 and every
 * file in it 0600 (the board cache, documents.sqlite and their -wal/-shm, settings, keys). The one
 * home for making a folder or a file private; the app (Electron and browser mode) and
 * `quayside sync --data-dir` go through it. Where the file system has no POSIX modes (Windows)
 * the calls change nothing.
 */
import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isMainThread } from 'node:worker_threads';

export const PRIVATE_FOLDER_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` private, and makes what an older version left in it private too (folders 0700,
 * files 0600; links are left alone, they may point outside).
 */
export function privateDataDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
  makeTreePrivate(dir);
}

function makeTreePrivate(path: string): void {
  let stats;
  try {
    stats = lstatSync(path);
  } catch {
    return; // gone meanwhile
  }
  if (stats.isDirectory()) {
    chmodSync(path, PRIVATE_FOLDER_MODE);
    for (const entry of readdirSync(path)) makeTreePrivate(join(path, entry));
  } else if (stats.isFile() && (stats.mode & 0o777) !== PRIVATE_FILE_MODE) {
    chmodSync(path, PRIVATE_FILE_MODE);
  }
}

/** Creates `file` empty when missing, readable and writable by the user alone either way. */
export function privateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}

/**
 * An SQLite database made private before it is opened: SQLite gives its -wal and -shm files the
 * database file's mode, and those of an older version are tightened here.
 */
export function privateSqliteFile(file: string): void {
  privateFile(file);
  for (const companion of ['-wal', '-shm', '-journal']) {
    try {
      chmodSync(file + companion, PRIVATE_FILE_MODE);
    } catch {
      // not there
    }
  }
}

/**
 * Files this process creates from now on (and those of the processes it starts: the embedded
 * service, Chromium's) are its user's alone, whatever the umask it was started with (022 makes
 * them readable by everyone). Only the main thread of a POSIX process may set it.
 */
export function privateNewFiles(): void {
  if (process.platform !== 'win32' && isMainThread) process.umask(0o077);
}
