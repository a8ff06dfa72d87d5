import { describe, expect, it } from 'vitest';
import {
  brokerSecretMatches,
  hashBrokerSecret,
  hashPassword,
  hashToken,
  isHashedBrokerSecret,
  newBrokerSecret,
  newToken,
  verifyPassword,
} from './crypto.js';

describe('crypto', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const stored = await hashPassword('rahasia');
    expect(stored).not.toContain('rahasia');
    expect(await verifyPassword('rahasia', stored)).toBe(true);
    expect(await verifyPassword('Rahasia', stored)).toBe(false);
    expect(await verifyPassword('rahasia', 'garbage')).toBe(false);
  });
  it('salts each hash', async () => {
    expect(await hashPassword('x')).not.toBe(await hashPassword('x'));
  });
  it('makes 256-bit tokens and stable hashes', () => {
    const t = newToken();
    expect(t).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).toBe(hashToken(t));
    expect(hashToken(t)).not.toBe(t);
  });
  it('stores broker secrets as a marked SHA-256 and matches only the right one', () => {
    const s = newBrokerSecret();
    expect(Buffer.from(s, 'base64url')).toHaveLength(32);
    const stored = hashBrokerSecret(s);
    expect(stored).not.toContain(s);
    expect(isHashedBrokerSecret(stored)).toBe(true);
    expect(brokerSecretMatches(Buffer.from(s), stored)).toBe(true);
    expect(brokerSecretMatches(Buffer.from(`${s}x`), stored)).toBe(false);
    expect(brokerSecretMatches(undefined, stored)).toBe(false);
    // a plain-text value is never a stored secret, even when the client sends exactly it
    expect(brokerSecretMatches(Buffer.from(s), s)).toBe(false);
    expect(brokerSecretMatches(Buffer.from(s), null)).toBe(false);
  });
});
