// DATA_DIR checked before anything opens it: a directory that exists or can be made in a parent that does, that this
// process can list, write and fill (a 1 MiB probe file, written and removed). Anything else stops the gateway with
// one line naming DATA_DIR and the reason, instead of a SqliteError's stack from deep inside the start-up.
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError } from '../config.js';

/** bytes written to prove the directory can take data (migrations and the first batches need far less) */
export const PROBE_BYTES = 1024 * 1024;

const reason = (err: unknown): string => {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return 'the disk is full (no room for 1 MiB)';
    case 'EROFS':
      return 'it is on a read-only file system';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOTDIR':
      return 'a part of its path is not a directory';
    default:
      return `${code ?? 'error'}: ${err instanceof Error ? err.message : String(err)}`;
  }
};

const fail = (dir: string, why: string) => new ConfigError(`DATA_DIR ${JSON.stringify(dir)} cannot be used: ${why}`);

/**
 * Checks (and, when only its last level is missing, creates) the data directory; throws a ConfigError with a one-line
 * message otherwise. Answers whether it created it. `:memory:` is not a directory and is not checked.
 */
export function checkDataDir(dir: string): { created: boolean } {
  if (dir === ':memory:') return { created: false };
  let created = false;
  let stat: fs.Stats | undefined;
  try {
    stat = fs.statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw fail(dir, reason(err));
  }
  if (!stat) {
    // a first start makes its directory, but only in a parent that exists: a missing parent is most likely a typo or
    // an unmounted volume, where data written would vanish or land in the wrong place
    const parent = path.dirname(path.resolve(dir));
    if (!fs.existsSync(parent)) throw fail(dir, `it does not exist, nor does its parent ${JSON.stringify(parent)}`);
    try {
      fs.mkdirSync(dir);
      created = true;
    } catch (err) {
      throw fail(dir, `it does not exist and cannot be created (${reason(err)})`);
    }
  } else if (!stat.isDirectory()) throw fail(dir, 'it is not a directory');
  try {
    fs.readdirSync(dir);
  } catch (err) {
    throw fail(dir, `it cannot be read (${reason(err)})`);
  }
  const probe = path.join(dir, `.sentra-probe-${process.pid}`);
  try {
    const fd = fs.openSync(probe, 'w');
    try {
      fs.writeSync(fd, Buffer.alloc(PROBE_BYTES));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    throw fail(dir, `it cannot be written (${reason(err)})`);
  } finally {
    fs.rmSync(probe, { force: true });
  }
  const db = path.join(dir, 'sentra.db');
  if (fs.existsSync(db)) {
    try {
      fs.closeSync(fs.openSync(db, 'r+'));
    } catch (err) {
      throw fail(dir, `its database sentra.db cannot be opened for writing (${reason(err)})`);
    }
  }
  return { created };
}
