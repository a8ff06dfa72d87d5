// Where a worker thread's code is: bundled next to the gateway (dist/<name>.js, see build.mjs), else the TypeScript
// source beside the module that starts it (tests, benchmarks), loaded through tsx's loader registered inside the worker
// (Node 20 does not apply a parent's `--import` hooks to a worker's entry).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

export interface WorkerEntry {
  script: URL | string;
  /** `script` is code to evaluate, not a file */
  eval: boolean;
}

/** `base` is the starting module's `import.meta.url`, `name` the entry's file name without extension */
export function workerEntry(base: string, name: string): WorkerEntry {
  const built = new URL(`./${name}.js`, base);
  if (fs.existsSync(built)) return { script: built, eval: false };
  const tsx = pathToFileURL(
    createRequire(base)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = new URL(`./${name}.ts`, base).href;
  return {
    script: `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); })`,
    eval: true,
  };
}
