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
  },
});
