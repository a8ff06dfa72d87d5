import { describe, expect, it } from 'vitest';
import { hashPassword, hashToken, newToken, verifyPassword } from './crypto.js';

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
});
