// The file-length check: a source file over 500 lines fails it unless a comment near its top begins "Over 500 lines"
// and says why; shorter files and files that say why pass.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./check-file-lengths.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'file-lengths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(head, lines) {
  const file = join(dir, `f${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, `${head}${'const x = 1;\n'.repeat(lines)}`);
  try {
    return { code: 0, out: execFileSync(process.execPath, [script, file], { encoding: 'utf8' }) };
  } catch (err) {
    return { code: err.status, out: String(err.stdout) };
  }
}

describe('scripts/check-file-lengths.mjs', () => {
  it('passes a file of 500 lines and a longer one that says why at its top', () => {
    expect(check('', 500).code).toBe(0);
    expect(check('// The catalogue.\n// Over 500 lines: one table, searched and reviewed whole.\n', 600).code).toBe(0);
  });

  it('fails a longer file without its reason, or with the words but no reason, naming it and its length', () => {
    const r = check('// The catalogue.\n', 501);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/f\w+\.ts: 502 lines/);
    expect(check('// Over 500 lines\n', 600).code).toBe(1);
    // the reason must be at the top, not anywhere
    expect(check(`${'\n'.repeat(20)}// Over 500 lines: one table, searched whole.\n`, 600).code).toBe(1);
  });

  it('checks every tracked source file when given none (the repository passes)', () => {
    const out = execFileSync(process.execPath, [script], { encoding: 'utf8' });
    expect(out).toMatch(/no source file over 500 lines without its reason \(\d+ files\)/);
  });
});
