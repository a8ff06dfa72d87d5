// V8's explicit compile hints for a built chunk (used by vite.config.ts, never by the console itself). A chunk whose
// first line is the magic comment `//# allFunctionsCalledOnLoad` is compiled whole while it loads (a module preload
// streams it on a background thread) instead of function by function on the main thread at first call. Measured on
// Plotly's chunk (docs/decisions/dashboard-performance.md "Compile hints"): its evaluation fell from ~125 ms
// to ~20 ms and the first draws of a dashboard's charts by a third, for more bytecode held in memory. Browsers
// without the hint read a comment.
import type { Plugin } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** The code with the hint as its first line (once). */
export function withCompileHint(code: string): string {
  return code.startsWith(COMPILE_HINT) ? code : `${COMPILE_HINT}\n${code}`;
}

/** A source map (JSON text) of code moved down one line: its mappings start with an empty line. */
export function shiftedSourceMap(json: string): string {
  const map = JSON.parse(json) as { mappings?: string };
  return JSON.stringify({ ...map, mappings: `;${map.mappings ?? ''}` });
}

/**
 * Puts the hint at the top of the chunks whose entry module `hinted` picks, after minification (which drops
 * comments), keeping their source maps true.
 */
export function compileHints(hinted: (facadeModuleId: string) => boolean): Plugin {
  return {
    name: 'sentra-compile-hints',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const chunk of Object.values(bundle)) {
        if (
          chunk.type !== 'chunk' ||
          !chunk.facadeModuleId ||
          !hinted(chunk.facadeModuleId) ||
          chunk.code.startsWith(COMPILE_HINT)
        )
          continue;
        chunk.code = withCompileHint(chunk.code);
        const map = bundle[`${chunk.fileName}.map`];
        if (map?.type === 'asset')
          map.source = shiftedSourceMap(
            typeof map.source === 'string' ? map.source : new TextDecoder().decode(map.source),
          );
      }
    },
  };
}
