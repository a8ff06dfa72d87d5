// Password hashing (scrypt, per-user salt) and session tokens (256-bit random, only the hash is stored).
import { hash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, 32);
  return `scrypt$${salt.toString('base64')}$${key.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, saltB64, keyB64] = stored.split('$');
  if (scheme !== 'scrypt' || !saltB64 || !keyB64) return false;
  const expected = Buffer.from(keyB64, 'base64');
  const key = await scryptAsync(password, Buffer.from(saltB64, 'base64'), expected.length);
  return timingSafeEqual(key, expected);
}

/** A new random secret, hex encoded (`bytes` of entropy). */
export const newToken = (bytes = 32) => randomBytes(bytes).toString('hex');
/** SHA-256, hex; the one-shot hash, since every authenticated call hashes its token. */
export const hashToken = (token: string) => hash('sha256', token, 'hex');
