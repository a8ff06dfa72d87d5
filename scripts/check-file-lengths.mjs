// Checks that no source file is over 500 lines unless it says why at its top: a comment line within its first 15
// that says "over 500 lines" and gives the reason after it (one catalogue kept whole, one state machine's closure,
// one benchmark read top to bottom). Long files hide several concerns; the ones that are long on purpose say so.
// Usage: node scripts/check-file-lengths.mjs [files...] (default: every tracked .ts, .tsx, .mjs and .c file that is not
// a test). Exit 1 on a file over the limit without its reason.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const MAX_LINES = 500;
const root = fileURLToPath(new URL('..', import.meta.url));
const source = /\.(ts|tsx|mjs|c)$/;
const test = /(\.test\.|\.spec\.|(^|\/)e2e\/|(^|\/)test\/)/;
const reason = /^\s*(\/\/|\/?\*+).*\bover 500 lines\b.{10,}/i;

const files =
  process.argv.length > 2
    ? process.argv.slice(2)
    : execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' })
        .split('\n')
        .filter((f) => source.test(f) && !test.test(f))
        .map((f) => `${root}${f}`);

const long = [];
for (const file of files) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const count = lines.at(-1) === '' ? lines.length - 1 : lines.length;
  if (count > MAX_LINES && !lines.slice(0, 15).some((l) => reason.test(l)))
    long.push(`${file.replace(root, '')}: ${count} lines`);
}
if (long.length) {
  console.log(
    `over ${MAX_LINES} lines without "Over 500 lines: <why>" at the top (split it by concern, or say why it stays whole):\n  ${long.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(`no source file over ${MAX_LINES} lines without its reason (${files.length} files)`);
