// Vite build of the Sentra console; in development the gateway (npm run serve, port 8080) answers the API and sockets.
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { constants as zlib } from 'node:zlib';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { compileHints } from './src/build/compileHints';

const gateway = 'http://127.0.0.1:8080';

/**
 * Writes the Plotly chunk's file name (hashed) over the placeholder in `cards/chart/chartDraws.ts`, so a dashboard
 * view can preload the chunk (fetch and compile, no evaluation) before its charts ask for it. Chunk names are final
 * only once the bundle is written, hence the placeholder.
 */
export function plotlyChunkName(placeholder = '__SENTRA_PLOTLY_CHUNK_FILE__'): Plugin {
  return {
    name: 'sentra-plotly-chunk-name',
    apply: 'build',
    generateBundle(_options, bundle) {
      const plotly = Object.values(bundle).find(
        (c) => c.type === 'chunk' && !!c.facadeModuleId?.endsWith('/cards/chart/plotly.ts'),
      );
      if (!plotly) return;
      for (const c of Object.values(bundle))
        if (c.type === 'chunk' && c.code.includes(placeholder))
          c.code = c.code.replaceAll(placeholder, plotly.fileName);
    },
  };
}

export default defineConfig({
  // Plotly's chunk compiled whole while it is preloaded: its evaluation and first draws no longer compile on the
  // main thread (src/build/compileHints.ts)
  plugins: [
    react(),
    plotlyChunkName(),
    compileHints((id) => id.endsWith('/cards/chart/plotly.ts')),
    // brotli and gzip copies (.br, .gz) of every script and style, at the strongest settings: compressed once here, the
    // gateway holds them in memory and answers the one the browser accepts (server/src/platform/http/assets.ts).
    // index.html is left out: the gateway adds its settings to the page and compresses that itself.
    compression({
      include: /\.(js|css)$/,
      threshold: 1024,
      algorithms: [
        defineAlgorithm('brotliCompress', { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
        defineAlgorithm('gzip', { level: 9 }),
      ],
    }),
  ],
  server: {
    host: '127.0.0.1',
    proxy: {
      '/service': gateway,
      '/fetch': gateway,
      '/socket.io': { target: gateway, ws: true },
      '/mqtt': { target: gateway, ws: true },
    },
  },
  build: {
    target: 'es2022',
    sourcemap: true,
    chunkSizeWarningLimit: 700,
    rollupOptions: {
      output: {
        // the framework changes rarely: its own long-cached chunks; MUI parts stay with the screens that use them
        manualChunks(id) {
          if (/node_modules\/(react|react-dom|react-router|scheduler)\//.test(id)) return 'react';
          if (/node_modules\/(zod|xstate|@xstate)\//.test(id)) return 'state';
          return undefined;
        },
      },
    },
  },
});
