// Bundles the gateway into dist/main.js (and its telemetry writer thread into dist/writer.worker.js) with esbuild: our workspaces (TypeScript) inlined, npm packages external.
import { build } from 'esbuild';

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@sentra/') ? undefined : { path: args.path, external: true }));
  },
};

await build({
  entryPoints: ['src/main.ts', 'src/modules/telemetry/writer.worker.ts'],
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
