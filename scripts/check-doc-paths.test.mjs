// The docs' path check: a backticked path that no tracked file has is reported and fails the run; existing files,
// folders, import specifiers and texts that are not paths (topics, API calls, placeholders) pass.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./check-doc-paths.mjs', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'doc-paths-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function check(markdown) {
  const file = join(dir, `doc${Math.random().toString(36).slice(2)}.md`);
  writeFileSync(file, markdown);
  try {
    return { code: 0, out: execFileSync(process.execPath, [script, file], { encoding: 'utf8' }) };
  } catch (err) {
    return { code: err.status, out: String(err.stdout) };
  }
}

describe('scripts/check-doc-paths.mjs', () => {
  it('passes paths that exist: full, relative to an area, a folder, an import specifier', () => {
    const r = check(
      'See `server/src/app.ts`, `devices/families/index.ts`, `platform/mqtt/persistence/`, `ui/DateTimeField`.\n',
    );
    expect(r.out).toContain('every named path exists');
    expect(r.code).toBe(0);
  });

  it('ignores topics, API calls and placeholders', () => {
    const r = check('Topics `d/<id>/data`, `cmnd/tasmotas/#`, calls `tag/category/get`, `/fetch/web/g/{id}/{key}`.\n');
    expect(r.code).toBe(0);
  });

  it('reports a removed file with its line and fails', () => {
    const r = check('Intro.\nThe adapters were in `telemetry/adapters/` and `commands/command-wire.ts`.\n');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/:2: telemetry\/adapters\//);
    expect(r.out).toMatch(/:2: commands\/command-wire\.ts/);
    expect(r.out).toContain('2 named path(s) not found');
  });
});
