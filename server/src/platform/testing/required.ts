// A suite that needs a component of the machine (nats-server, the native reader, PostgreSQL, haproxy, a C compiler)
// runs when it is there. Where it is missing, a developer's run skips the suite and says why; CI (`.ci/run` sets
// SENTRA_CI=1) installs every component, so a missing one there is a failure of the run, never a silent skip.
import fs from 'node:fs';
import { spawnSync } from 'node:child_process';

/** whether this run must have every component (CI) */
export const componentsRequired = (): boolean => process.env.SENTRA_CI === '1';

/**
 * `present` as given; when it is false, CI fails here (the test file fails to load) and another run logs the skip.
 * Use as `describe.skipIf(!required('nats-server', hasNatsServer))(...)`.
 */
export function required(component: string, present: boolean, how = ''): boolean {
  if (present) return true;
  const why = `${component} is missing${how ? ` (${how})` : ''}`;
  if (componentsRequired()) throw new Error(`${why}: CI needs it, the suites that use it cannot be skipped`);
  process.stderr.write(`skipped: ${why}\n`);
  return false;
}

/** whether haproxy is installed (the chaos run puts it in front of its gateways: server/chaos/cluster.ts) */
export const haproxyBinary = (): string | null => {
  for (const p of ['/usr/sbin/haproxy', '/usr/local/sbin/haproxy']) if (fs.existsSync(p)) return p;
  return spawnSync('haproxy', ['-v'], { stdio: 'ignore' }).status === 0 ? 'haproxy' : null;
};
