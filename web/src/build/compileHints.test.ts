// The compile hint put on a built chunk: first line once, source map moved down with it, other chunks untouched.
import { describe, expect, it } from 'vitest';
import type { Rollup } from 'vite';
import { COMPILE_HINT, compileHints, shiftedSourceMap, withCompileHint } from './compileHints.js';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;
type OutputAsset = Rollup.OutputAsset;

const chunk = (fileName: string, facadeModuleId: string | null, code: string) =>
  ({ type: 'chunk', fileName, facadeModuleId, code }) as unknown as OutputChunk;
const asset = (fileName: string, source: string | Uint8Array) =>
  ({ type: 'asset', fileName, source }) as unknown as OutputAsset;

function generate(bundle: OutputBundle, hinted = (id: string) => id.endsWith('/plotly.ts')) {
  const hook = compileHints(hinted).generateBundle as unknown as (
    this: unknown,
    options: unknown,
    bundle: OutputBundle,
  ) => void;
  hook.call({}, {}, bundle);
}

describe('compile hints', () => {
  it('put the hint on the first line, once', () => {
    expect(withCompileHint('import"./a.js";')).toBe(`${COMPILE_HINT}\nimport"./a.js";`);
    expect(withCompileHint(withCompileHint('x'))).toBe(`${COMPILE_HINT}\nx`);
  });

  it('move the source map down one line and keep its other fields', () => {
    const map = JSON.parse(shiftedSourceMap(JSON.stringify({ version: 3, sources: ['a.ts'], mappings: 'AAAA;AACA' })));
    expect(map).toEqual({ version: 3, sources: ['a.ts'], mappings: ';AAAA;AACA' });
  });

  it('hint the chosen chunk and its map (text or bytes), and leave the others as they are', () => {
    const bundle = {
      'plotly-1.js': chunk('plotly-1.js', '/w/src/cards/chart/plotly.ts', 'var p=1;'),
      'plotly-1.js.map': asset(
        'plotly-1.js.map',
        new TextEncoder().encode(JSON.stringify({ version: 3, mappings: 'AAAA' })),
      ),
      'index-2.js': chunk('index-2.js', '/w/src/main.tsx', 'var i=1;'),
      'index-2.js.map': asset('index-2.js.map', JSON.stringify({ version: 3, mappings: 'AAAA' })),
      'shared-3.js': chunk('shared-3.js', null, 'var s=1;'),
    } as unknown as OutputBundle;
    generate(bundle);
    generate(bundle); // a second pass changes nothing
    expect((bundle['plotly-1.js'] as OutputChunk).code).toBe(`${COMPILE_HINT}\nvar p=1;`);
    expect(JSON.parse(String((bundle['plotly-1.js.map'] as OutputAsset).source)).mappings).toBe(';AAAA');
    expect((bundle['index-2.js'] as OutputChunk).code).toBe('var i=1;');
    expect(JSON.parse(String((bundle['index-2.js.map'] as OutputAsset).source)).mappings).toBe('AAAA');
    expect((bundle['shared-3.js'] as OutputChunk).code).toBe('var s=1;');
  });
});
