// Bundles the gateway into dist/main.js with esbuild: our workspaces (TypeScript) inlined, npm packages external.
import { build } from 'esbuild';

const externalPackages = {
  name: 'external-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@sentra/') ? undefined : { path: args.path, external: true }));
  },
};

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  plugins: [externalPackages],
  sourcemap: true,
  logLevel: 'warning',
});
