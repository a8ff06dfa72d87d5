// `npm start`: build what is stale (web console, gateway bundle), then run the gateway with the demo on by default.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** newest modification time under `dirs` (files only), 0 when none */
function newest(dirs) {
  let max = 0;
  const walk = (p) => {
    if (!fs.existsSync(p)) return;
    const st = fs.statSync(p);
    if (st.isDirectory()) {
      if (path.basename(p) === 'node_modules' || path.basename(p) === 'dist') return;
      for (const e of fs.readdirSync(p)) walk(path.join(p, e));
    } else max = Math.max(max, st.mtimeMs);
  };
  dirs.forEach((d) => walk(path.join(root, d)));
  return max;
}

const mtime = (f) => (fs.existsSync(path.join(root, f)) ? fs.statSync(path.join(root, f)).mtimeMs : 0);

function buildIfStale(label, output, sources, workspace) {
  if (mtime(output) > newest(sources)) return;
  console.log(`sentra: building ${label}...`);
  const r = spawnSync('npm', ['run', 'build', '-w', workspace], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

buildIfStale(
  'web console',
  'web/dist/index.html',
  ['web/src', 'web/index.html', 'web/vite.config.ts', 'contracts/src'],
  'web',
);
buildIfStale('gateway', 'server/dist/main.js', ['server/src', 'contracts/src', 'server/build.mjs'], 'server');

// an IPC channel: the gateway reports the ports it bound (PORT=0 or MQTT_PORT=0 pick free ones), which the demo targets
const child = spawn(process.execPath, ['--enable-source-maps', 'server/dist/main.js'], {
  cwd: root,
  stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  env: { ...process.env, SENTRA_DEFAULT_DEMO: 'on', NODE_ENV: process.env.NODE_ENV ?? 'production' },
});

// the live demo: a simulated fleet of a few hundred devices and the ready-made dashboards, in its own process, started
// once the gateway listens
let fleet;
child.on('message', (m) => {
  if (fleet || (process.env.DEMO ?? 'on') === 'off' || m?.sentra !== 'listening') return;
  const host = process.env.HOST || '127.0.0.1';
  const target = host === '0.0.0.0' ? '127.0.0.1' : host;
  fleet = spawn(process.execPath, ['--import', 'tsx', 'simulator/src/demo-run.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: {
      ...process.env,
      SENTRA_URL: `http://${target}:${m.port}`,
      SENTRA_MQTT: `mqtt://${target}:${m.mqttPort}`,
      // its Sentra end devices keep their tokens beside the gateway's data, as real devices keep theirs
      SENTRA_DEMO_TOKENS: path.join(m.dataDir, 'demo-fleet-tokens.json'),
    },
  });
  fleet.on(
    'exit',
    (code) => code && console.error(`sentra: the demo fleet stopped (${code}); the console keeps running`),
  );
});

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    fleet?.kill(sig);
    child.kill(sig);
  });
}
child.on('exit', (code) => {
  fleet?.kill('SIGTERM');
  process.exit(code ?? 0);
});
