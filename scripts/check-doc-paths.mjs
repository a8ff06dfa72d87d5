// Checks that every file or folder the docs name in backticks exists, so they cannot keep citing files that moved.
// Usage: node scripts/check-doc-paths.mjs [files...] (default: README.md and every docs/**/*.md). Exit 1 on a miss.
//
// A backticked text counts as a path when it ends in a source extension or "/", or starts with a folder name that
// the repository has (so `telemetry/adapters` counts but the API path `tag/category/get` does not). A path is found
// when it names a tracked file or folder from the repository's root, from the doc's own folder, or from one of the
// areas the docs describe (AREAS: `devices/families/index.ts` is server/src/modules/devices/families/index.ts); a bare
// file name names a kind of file and must be some tracked file's name. A path that merely ends some tracked path
// (`families/index.ts`, or a folder's old place whose tail still exists elsewhere) is not found: it could name a file
// the doc did not mean.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
const known = new Set();
for (const file of tracked) {
  for (let path = file; path !== '.'; path = dirname(path)) known.add(path);
}
const folderNames = new Set([...known].filter((path) => !tracked.includes(path)).map((path) => path.split('/').pop()));
const sourceFile = /[\w-]\.(ts|tsx|mjs|js|md|json|c|sql|yml|sh)$/;
// Backticked texts that look like paths but are not files of the repository: API calls and MQTT topics whose first
// word is also a folder name, a package's file, an option, and a folder the docs name as the one not chosen.
const notPaths = new Set(['list/nin', 'lora/data/raw', 'express.json', 'countries-110m.json', 'server/src/families/']);

function looksLikePath(text) {
  // Placeholders, topics, URLs, globs and options are not files.
  if (/[<>{}*\s+#%|?…$@=]/.test(text) || text.includes('://') || text.includes('...') || text.startsWith('-')) {
    return false;
  }
  if (text.startsWith('/') && !text.startsWith('/work/')) return false; // a URL path
  if (notPaths.has(text) || /(^|\/)dist(\/|$)/.test(text)) return false; // built output is not tracked
  return sourceFile.test(text) || text.endsWith('/') || (text.includes('/') && folderNames.has(text.split('/')[0]));
}

/** The folders the docs name paths from, besides the root and the doc's own folder (the packages' sources). */
const AREAS = [
  'server/src/modules/telemetry/',
  'server/src/modules/devices/',
  'server/src/modules/',
  'server/src/platform/mqtt/',
  'server/src/platform/',
  'server/src/',
  'server/',
  'web/src/screens/',
  'web/src/cards/',
  'web/src/ui/',
  'web/src/',
  'web/',
  'contracts/src/',
  'contracts/',
  'simulator/src/',
  'simulator/',
  'loadtest/',
  'docs/',
];
const baseName = (path) => path.split('/').pop();
const byName = new Map();
for (const path of known) byName.set(baseName(path), (byName.get(baseName(path)) ?? 0) + 1);

function exists(text, from) {
  if (text.startsWith('/work/')) return true; // the shared workspace outside the repository
  const clean = text.replace(/:\d+$/, '').replace(/\/$/, '');
  // An import specifier names a module without its extension (`ui/DateTimeField`).
  const names = [clean, `${clean}.ts`, `${clean}.tsx`];
  if (clean.startsWith('../') || clean.startsWith('./')) return names.some((n) => known.has(normalize(join(from, n))));
  // a bare file name names a kind of file ("each family's `uplink.ts`"): some tracked file must have that name
  if (!clean.includes('/')) return names.some((n) => byName.has(n));
  const bases = ['', `${from}/`, ...AREAS];
  return bases.some((base) => names.some((name) => known.has(normalize(`${base}${name}`))));
}

const files =
  process.argv.length > 2 ? process.argv.slice(2) : tracked.filter((f) => /^(README|docs\/.*)\.md$/.test(f));
let missing = 0;
for (const file of files) {
  // a file named on the command line is relative to where the command runs; the repository's own, to the root
  const path = process.argv.length > 2 ? resolve(file) : join(root, file);
  readFileSync(path, 'utf8')
    .split('\n')
    .forEach((line, index) => {
      for (const [, text] of line.matchAll(/`([^`\n]+)`/g)) {
        if (looksLikePath(text) && !exists(text, relative(root, dirname(path)))) {
          missing += 1;
          console.log(`${file}:${index + 1}: ${text}`);
        }
      }
    });
}
console.log(missing === 0 ? 'every named path exists' : `${missing} named path(s) not found`);
process.exit(missing === 0 ? 0 : 1);
