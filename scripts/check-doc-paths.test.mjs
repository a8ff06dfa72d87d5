// The docs' path check: a backticked path that no tracked file has is reported and fails the run; existing files,
// folders, import specifiers and texts that are not paths (topics, API calls, placeholders) pass. A path counts from
// the root, the doc's folder or one of the areas the docs describe, never because some tracked path ends with it.
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

  it('refuses a path that merely ends with a tracked one (a tail, a folder named in the wrong place)', () => {
    // each is the end of a real path (server/src/modules/devices/families/tasmota/command.test.ts,
    // web/src/screens/dashboards/editor/ViewFieldsForm.tsx) but names it from no root, doc folder or area
    const r = check('The tests are `tasmota/command.test.ts`; the form is `editor/ViewFieldsForm.tsx`.\n');
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/:1: tasmota\/command\.test\.ts/);
    expect(r.out).toMatch(/:1: editor\/ViewFieldsForm\.tsx/);
    expect(r.out).toContain('2 named path(s) not found');
  });

  it('passes the same files named from an area or the root, and a bare file name some tracked file has', () => {
    const r = check(
      '`devices/families/index.ts`, `screens/dashboards/editor/ViewFieldsForm.tsx`, ' +
        '`web/src/screens/dashboards/editor/ViewFieldsForm.tsx`, `uplink.ts`.\n',
    );
    expect(r.out).toContain('every named path exists');
    expect(r.code).toBe(0);
  });

  it('refuses a bare file name no tracked file has', () => {
    const r = check('See `no-such-module.ts`.\n');
    expect(r.code).toBe(1);
  });
});
