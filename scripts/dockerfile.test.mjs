// The image carries the native helper (server/native): built after its sources are copied in (the postinstall of
// `npm ci` runs before them and falls back quietly), a failed build failing the image, and the built module copied
// into the runtime stage where the gateway bundle looks for it (server/dist → server/native/build/Release/fd.node).
// No Docker daemon runs here; the same steps were run by hand in a clean directory (docs/decisions/platform.md).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const lines = fs
  .readFileSync(path.join(root, 'Dockerfile'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() && !l.trim().startsWith('#'));
const stages = [];
for (const l of lines) {
  if (/^FROM /i.test(l)) stages.push([]);
  stages[stages.length - 1]?.push(l.trim());
}
const [build, runtime] = stages;
const at = (stage, re) => stage.findIndex((l) => re.test(l));

describe('the Docker image and the native helper', () => {
  it('builds server/native in the build stage after the sources are copied, a failure failing the build', () => {
    const copied = at(build, /^COPY \. \.$/);
    const native = at(build, /^RUN .*npm run native/);
    expect(copied).toBeGreaterThan(0);
    expect(native).toBeGreaterThan(copied);
    expect(build[native]).not.toMatch(/\|\||; *true|exit 0/);
    expect(build[native]).toMatch(/test -f server\/native\/build\/Release\/fd\.node/);
  });
  it('copies the built module into the runtime stage beside the bundle it serves', () => {
    const copy = runtime.find((l) => /^COPY --from=build .*fd\.node/.test(l));
    expect(copy).toBe(
      'COPY --from=build /app/server/native/build/Release/fd.node ./server/native/build/Release/fd.node',
    );
    expect(runtime).toContain('COPY --from=build /app/server/dist ./server/dist');
  });
  it('the script the image runs is the one package.json defines, without the fallback', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    expect(pkg.scripts.native).toMatch(/^node-gyp rebuild --directory=server\/native/);
    expect(pkg.scripts.native).not.toMatch(/\|\|/);
  });
});
