// Vite build of the Sentra console; in development the gateway (npm run serve, port 8080) answers the API and sockets.
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const gateway = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
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
