// The k6 scripts are plain ES modules a stock `k6 run` accepts: they parse as modules, import only k6's own modules
// and each other, export the options k6 reads, and define the scenarios and thresholds the README promises.
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = path.dirname(fileURLToPath(import.meta.url));
const scripts = ['cards.js', 'dashboards.js', 'lib/session.js'];
const K6_MODULES = new Set(['k6', 'k6/http', 'k6/metrics', 'k6/ws', 'k6/crypto', 'k6/encoding', 'k6/execution', 'k6/data', 'k6/timers']);

/** `node --check` on a .mjs copy: the module grammar (import/export) is parsed, nothing is linked or run. */
function checkModule(file: string): void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k6-'));
  const copy = path.join(dir, `${path.basename(file, '.js')}.mjs`);
  fs.writeFileSync(copy, fs.readFileSync(path.join(here, file)));
  try {
    execFileSync(process.execPath, ['--check', copy], { stdio: 'pipe' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const importsOf = (source: string) => [...source.matchAll(/^\s*import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]!);

describe('k6 scripts', () => {
  it.each(scripts)('%s parses as an ES module', (file) => {
    expect(() => checkModule(file)).not.toThrow();
  });
  it.each(scripts)('%s imports only k6 modules and its own files', (file) => {
    const source = fs.readFileSync(path.join(here, file), 'utf8');
    for (const spec of importsOf(source)) {
      if (spec.startsWith('.')) expect(fs.existsSync(path.join(here, path.dirname(file), spec))).toBe(true);
      else expect(K6_MODULES.has(spec)).toBe(true);
    }
  });
  it('cards.js has a ramping and a constant-arrival-rate scenario, thresholds on p95 and errors, and a trend per function', () => {
    const source = fs.readFileSync(path.join(here, 'cards.js'), 'utf8');
    expect(source).toMatch(/executor: 'ramping-vus'/);
    expect(source).toMatch(/executor: 'constant-arrival-rate'/);
    expect(source).toMatch(/http_req_failed: \['rate<0\.01'\]/);
    expect(source).toMatch(/p\(95\)</);
    expect(source).toMatch(/new Trend\(`card_\$\{name\.toLowerCase\(\)\}_ms`/);
    expect(source).toMatch(/export const options/);
    expect(source).toMatch(/export function setup/);
  });
});
