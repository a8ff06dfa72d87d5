// The key that seals API credentials and refresh tokens (AES-256-GCM, credentials/secret-box.ts). Not beside the
// database in the same directory (issue 23): a copy of the data directory alone must not open the sealed secrets.
// - SEAL_KEY (64 hex or base64 of 32 bytes) from the environment: nothing is written;
// - else SEAL_KEY_FILE, by default `<DATA_DIR>.seal.key` next to the data directory; created 0600 when missing;
// - an older deployment's `DATA_DIR/secrets.key` is moved there at the first start (same key, nothing re-sealed).
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

/** where versions before issue 23 kept the key, inside DATA_DIR */
export const LEGACY_KEY_FILE = 'secrets.key';

/** 32 key bytes from 64 hex characters or base64 (standard or url-safe), else undefined. */
export function sealKeyBytes(text: string): Buffer | undefined {
  const v = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}={0,1}$/.test(v)) {
    const b = Buffer.from(v, v.includes('-') || v.includes('_') ? 'base64url' : 'base64');
    if (b.length === 32) return b;
  }
  return undefined;
}

export const defaultSealKeyFile = (dataDir: string) => `${path.resolve(dataDir)}.seal.key`;

export interface SealKeySource {
  DATA_DIR: string;
  SEAL_KEY?: string;
  SEAL_KEY_FILE?: string;
  /** the older name of SEAL_KEY */
  SENTRA_SECRETS_KEY?: string;
}

/** Creates `file` with `content` (mode 0600) unless it exists: written aside, then linked, so no reader sees it half. */
function createOnce(file: string, content: string) {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  fs.writeFileSync(aside, content, { flag: 'wx', mode: 0o600 });
  try {
    fs.linkSync(aside, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(aside, { force: true });
  }
}

function readKeyFile(file: string): Buffer {
  const key = sealKeyBytes(fs.readFileSync(file, 'utf8'));
  if (!key) throw new Error(`SEAL_KEY_FILE ${file} does not hold a key (64 hex characters or base64 of 32 bytes)`);
  // a key file readable by others is tightened; one we may not change (another owner) is left as it is
  try {
    if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  } catch {
    /* not ours to change */
  }
  return key;
}

/** The sealing key, and where it came from (for the start-up log). */
export function loadSealKey(source: SealKeySource): { key: Buffer; from: string } {
  const fromEnv = source.SEAL_KEY ?? source.SENTRA_SECRETS_KEY;
  if (fromEnv) {
    const key = sealKeyBytes(fromEnv);
    if (!key) throw new Error('SEAL_KEY must be 32 bytes as 64 hex characters or base64');
    return { key, from: source.SEAL_KEY ? 'SEAL_KEY' : 'SENTRA_SECRETS_KEY' };
  }
  if (source.DATA_DIR === ':memory:') return { key: randomBytes(32), from: 'this process only (:memory:)' };
  const file = path.resolve(source.SEAL_KEY_FILE ?? defaultSealKeyFile(source.DATA_DIR));
  if (!fs.existsSync(file)) {
    const legacy = path.join(source.DATA_DIR, LEGACY_KEY_FILE);
    if (fs.existsSync(legacy)) {
      createOnce(file, fs.readFileSync(legacy, 'utf8').trim());
      // only once the same key is in its new place (another gateway may have moved it first)
      if (readKeyFile(file).equals(readKeyFile(legacy))) fs.rmSync(legacy, { force: true });
      return { key: readKeyFile(file), from: `${file} (moved from ${legacy})` };
    }
    createOnce(file, randomBytes(32).toString('hex'));
  }
  return { key: readKeyFile(file), from: file };
}
