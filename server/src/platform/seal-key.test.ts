import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSealKeyFile, loadSealKey, sealKeyBytes } from './seal-key.js';

const dirs: string[] = [];
function tmp() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-seal-'));
  dirs.push(dir);
  const dataDir = path.join(dir, 'data');
  fs.mkdirSync(dataDir);
  return { dir, dataDir };
}
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe('the sealing key', () => {
  it('reads SEAL_KEY as 64 hex or base64 of 32 bytes, and nothing else', () => {
    const raw = Buffer.alloc(32, 9);
    expect(sealKeyBytes(raw.toString('hex'))).toEqual(raw);
    expect(sealKeyBytes(raw.toString('base64'))).toEqual(raw);
    expect(sealKeyBytes(raw.toString('base64url'))).toEqual(raw);
    expect(sealKeyBytes(Buffer.alloc(31).toString('base64'))).toBeUndefined();
    expect(sealKeyBytes('ab'.repeat(31))).toBeUndefined();
    const { dataDir } = tmp();
    expect(loadSealKey({ DATA_DIR: dataDir, SEAL_KEY: raw.toString('hex') }).key).toEqual(raw);
    // given by the environment, nothing is written
    expect(fs.existsSync(defaultSealKeyFile(dataDir))).toBe(false);
  });
  it('generates the key once, 0600, beside the data directory and not in it; the next start reads the same', () => {
    const { dir, dataDir } = tmp();
    const first = loadSealKey({ DATA_DIR: dataDir });
    expect(first.from).toBe(path.join(dir, 'data.seal.key'));
    expect(fs.statSync(first.from).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(dataDir)).toEqual([]);
    expect(loadSealKey({ DATA_DIR: dataDir }).key).toEqual(first.key);
    expect(fs.readdirSync(dir).sort()).toEqual(['data', 'data.seal.key']);
  });
  it('uses SEAL_KEY_FILE when given, tightening a key file readable by others', () => {
    const { dir, dataDir } = tmp();
    const file = path.join(dir, 'keys', 'seal.key');
    const key = loadSealKey({ DATA_DIR: dataDir, SEAL_KEY_FILE: file }).key;
    fs.chmodSync(file, 0o644);
    expect(loadSealKey({ DATA_DIR: dataDir, SEAL_KEY_FILE: file }).key).toEqual(key);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
  it("moves an older deployment's DATA_DIR/secrets.key out of the data directory, keeping the key", () => {
    const { dataDir } = tmp();
    fs.writeFileSync(path.join(dataDir, 'secrets.key'), 'cd'.repeat(32), { mode: 0o600 });
    const moved = loadSealKey({ DATA_DIR: dataDir });
    expect(moved.key.toString('hex')).toBe('cd'.repeat(32));
    expect(fs.existsSync(path.join(dataDir, 'secrets.key'))).toBe(false);
    expect(loadSealKey({ DATA_DIR: dataDir }).key).toEqual(moved.key);
  });
  it('stops on a key file that holds no key', () => {
    const { dir, dataDir } = tmp();
    const file = path.join(dir, 'rusak.key');
    fs.writeFileSync(file, 'bukan kunci');
    expect(() => loadSealKey({ DATA_DIR: dataDir, SEAL_KEY_FILE: file })).toThrow(/SEAL_KEY_FILE/);
  });
});
