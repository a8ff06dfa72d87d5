// BUS=nats with no NATS server: the first connection is retried with warnings naming NATS_URL, then fails with one
// line naming the variables; a server that comes up within the wait is joined.
import { afterEach, describe, expect, it } from 'vitest';
import type { Logger } from '../log.js';
import { until } from '../testing/until.js';
import { ConfigError } from '../config.js';
import { connectNats, NatsUnreachableError, shownNatsUrl } from './nats-connect.js';
import { freePort, hasNatsServer, startNatsServer, type NatsServer } from './testing/nats-server.js';

function recordingLog(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  const none = () => undefined;
  return { warnings, debug: none, info: none, error: none, warn: (msg: string) => void warnings.push(msg) };
}

let nats: NatsServer | undefined;
afterEach(async () => {
  await nats?.stop();
  nats = undefined;
});

describe('the first connection of BUS=nats', () => {
  it('retries a closed NATS_URL with a warning naming it, then fails with one line naming NATS_URL and NATS_CONNECT_TIMEOUT_MS', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const log = recordingLog();
    const started = Date.now();
    const failure = await connectNats({ url, name: 'test', waitMs: 1_200 }, log).then(
      () => undefined,
      (err: unknown) => err,
    );
    const took = Date.now() - started;
    expect(failure).toBeInstanceOf(NatsUnreachableError);
    expect(failure).toBeInstanceOf(ConfigError);
    const message = (failure as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(
      new RegExp(
        `^BUS=nats: no NATS server reachable at NATS_URL=${url} within [\\d.]+ s \\(\\d+ attempts, last: CONNECTION_REFUSED\\)`,
      ),
    );
    expect(message).toContain('NATS_CONNECT_TIMEOUT_MS=1200');
    // bounded: the wait, plus at most one attempt and the scheduler's slack on a busy machine
    expect(took).toBeGreaterThanOrEqual(1_200);
    expect(took).toBeLessThan(1_200 + 3_000);
    expect(log.warnings[0]).toBe(
      `BUS=nats: NATS not reachable at NATS_URL=${url} (CONNECTION_REFUSED); retrying for up to 1.2 s (NATS_CONNECT_TIMEOUT_MS) before giving up`,
    );
  });

  it('makes a single attempt when NATS_CONNECT_TIMEOUT_MS is 0', async () => {
    const url = `nats://127.0.0.1:${await freePort()}`;
    const log = recordingLog();
    await expect(connectNats({ url, name: 'test', waitMs: 0 }, log)).rejects.toThrow(
      /\(1 attempt, last: CONNECTION_REFUSED\)/,
    );
    expect(log.warnings).toEqual([]);
  });

  it.skipIf(!hasNatsServer)('joins a NATS server that starts during the wait', async () => {
    const port = await freePort();
    const log = recordingLog();
    const connecting = connectNats({ url: `nats://127.0.0.1:${port}`, name: 'test', waitMs: 15_000 }, log);
    // the server starts once the first attempt failed: the join happens during the wait, not at the first try
    expect(await until(() => log.warnings.length > 0)).toBe(true);
    nats = await startNatsServer(port);
    const nc = await connecting;
    try {
      expect(nc.getServer()).toBe(`127.0.0.1:${port}`);
      expect(log.warnings[0]).toMatch(
        /NATS not reachable at NATS_URL=nats:\/\/127\.0\.0\.1:\d+ \(CONNECTION_REFUSED\); retrying/,
      );
    } finally {
      await nc.close();
    }
  });

  it('masks a user and password of NATS_URL in what it logs', () => {
    expect(shownNatsUrl('nats://sentra:rahasia@nats-1:4222, nats://nats-2:4222')).toBe(
      'nats://***@nats-1:4222,nats://nats-2:4222',
    );
    expect(shownNatsUrl('nats://token@127.0.0.1:4222')).toBe('nats://***@127.0.0.1:4222');
  });
});
