import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptTokens } from './kept-tokens.js';

const dir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'kept-tokens-'));
const token = (c: string) => c.repeat(64);

describe('the tokens the fleet’s devices keep', () => {
  it('keeps nothing without a file', async () => {
    const kept = await keptTokens(undefined);
    await kept.set('S1', token('a'));
    expect(kept.get('S1')).toBeUndefined();
  });

  it('starts empty without the file, writes it owner-only, and reads it back in the next run', async () => {
    const file = path.join(dir(), 'sub', 'tokens.json');
    const first = await keptTokens(file);
    expect(first.get('S1')).toBeUndefined();
    await first.set('S1', token('a'));
    await first.set('S2', token('b'));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const next = await keptTokens(file);
    expect([next.get('S1'), next.get('S2')]).toEqual([token('a'), token('b')]);
    await next.set('S1', undefined);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ S2: token('b') });
    expect(fs.readdirSync(path.dirname(file))).toEqual(['tokens.json']);
  });

  it('writes every change of many made at once, the last state last', async () => {
    const file = path.join(dir(), 'tokens.json');
    const kept = await keptTokens(file);
    await Promise.all(Array.from({ length: 20 }, (_, i) => kept.set(`S${i}`, token((i % 10).toString()))));
    expect(Object.keys(JSON.parse(fs.readFileSync(file, 'utf8')))).toHaveLength(20);
  });

  it('takes a damaged file as empty and ignores entries that are no token', async () => {
    const file = path.join(dir(), 'tokens.json');
    fs.writeFileSync(file, '{"S1": ');
    expect((await keptTokens(file)).get('S1')).toBeUndefined();
    fs.writeFileSync(file, JSON.stringify({ S1: '<script>', S2: 7, S3: token('c') }));
    const kept = await keptTokens(file);
    expect([kept.get('S1'), kept.get('S2'), kept.get('S3')]).toEqual([undefined, undefined, token('c')]);
  });
});
