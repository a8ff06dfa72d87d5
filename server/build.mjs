// Bundles the gateway into dist/main.js (and its threads: dist/writer.worker.js, the telemetry writer, dist/checkpoint.worker.js, its WAL checkpoint thread, dist/broker.worker.js, the MQTT broker, and dist/liveness.worker.js, the balancer's liveness check) with esbuild: our workspaces (TypeScript) inlined, npm packages external.
import { build } from 'esbuild';

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@sentra/') ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  entryPoints: [
    'src/main.ts',
    'src/modules/telemetry/store/writer.worker.ts',
    'src/modules/telemetry/store/checkpoint.worker.ts',
    'src/platform/mqtt/broker.worker.ts',
    'src/platform/liveness/liveness.worker.ts',
  ],
  outdir: 'dist',
  entryNames: '[name]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [externalPackages],
  sourcemap: true,
  logLevel: 'warning',
});
