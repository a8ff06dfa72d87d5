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

/**
 * A broker secret (device password, gateway secret): 256 bits of randomness, base64url (43 characters, fits the
 * password field of gateway firmware). Generated, never chosen, so one SHA-256 is enough to store it: nobody can
 * search 2^256 values, and the broker checks it on every CONNECT without scrypt's deliberate cost.
 */
export const newBrokerSecret = () => randomBytes(32).toString('base64url');

const BROKER_SECRET_SCHEME = 'sha256$';
/** The stored form of a broker secret, marked so a plain-text password left by an older version is told apart. */
export const hashBrokerSecret = (secret: string | Buffer) => `${BROKER_SECRET_SCHEME}${hash('sha256', secret, 'hex')}`;
export const isHashedBrokerSecret = (stored: string) => stored.startsWith(BROKER_SECRET_SCHEME);

/** Whether the password a client sent is the secret whose stored form is `stored` (constant time). */
export function brokerSecretMatches(given: Buffer | undefined, stored: string | null | undefined): boolean {
  if (!given || !stored || !isHashedBrokerSecret(stored)) return false;
  const a = Buffer.from(hashBrokerSecret(given));
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
