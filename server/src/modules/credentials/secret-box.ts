// Encrypts the secrets the console must show again (credentials secrets, refresh tokens) with AES-256-GCM, so a
// copied database file alone does not reveal them. The key lives beside the database, created on first start.
import fs from 'node:fs';
import path from 'node:path';
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('secret box key must be 32 bytes');
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join(':');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('unknown sealed secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

export const SECRET_KEY_FILE = 'secrets.key';

/**
 * The key of `dataDir` (hex in `secrets.key`, mode 0600), created on first use; `SENTRA_SECRETS_KEY` (64 hex)
 * overrides it for deployments that keep keys outside the data volume. `:memory:` gets a key for this process only.
 */
export function loadSecretKey(dataDir: string, env: Record<string, string | undefined> = process.env): Buffer {
  const fromEnv = env.SENTRA_SECRETS_KEY;
  if (fromEnv) {
    if (!/^[0-9a-fA-F]{64}$/.test(fromEnv)) throw new Error('SENTRA_SECRETS_KEY must be 64 hex characters');
    return Buffer.from(fromEnv, 'hex');
  }
  if (dataDir === ':memory:') return randomBytes(32);
  const file = path.join(dataDir, SECRET_KEY_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(32).toString('hex'), { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  const hex = fs.readFileSync(file, 'utf8').trim();
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) throw new Error(`${file} is not a 64-hex-character key`);
  return Buffer.from(hex, 'hex');
}
