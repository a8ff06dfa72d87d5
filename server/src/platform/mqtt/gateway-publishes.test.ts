import { describe, expect, it } from 'vitest';
import { GatewayPublishes } from './gateway-publishes.js';

const state = (p: Promise<void>) =>
  Promise.race([
    p.then(
      () => 'resolved',
      (err: Error) => `rejected: ${err.message}`,
    ),
    new Promise((r) => setImmediate(() => r('pending'))),
  ]);

function open(publishes: GatewayPublishes, threads: number) {
  let req = 0;
  const done = publishes.open(threads, (r) => (req = r));
  return { req, done };
}

describe("the gateway's publishes to the broker threads", () => {
  it('settle once every thread answered', async () => {
    const publishes = new GatewayPublishes();
    let req = 0;
    const done = publishes.open(3, (r) => (req = r));
    publishes.answered(req);
    publishes.answered(req);
    expect(await state(done)).toBe('pending');
    publishes.answered(req);
    expect(await state(done)).toBe('resolved');
    expect(publishes.size).toBe(0);
  });

  it("fail on a thread's error, and later answers to them are ignored", async () => {
    const publishes = new GatewayPublishes();
    const a = open(publishes, 2);
    const b = open(publishes, 2);
    expect(b.req).not.toBe(a.req);
    publishes.answered(a.req, 'queue full');
    publishes.answered(a.req);
    publishes.answered(999);
    expect(await state(a.done)).toBe('rejected: queue full');
    expect(await state(b.done)).toBe('pending');
    expect(publishes.size).toBe(1);
  });

  it('all fail when a thread is lost or the broker closes', async () => {
    const publishes = new GatewayPublishes();
    const a = open(publishes, 2);
    const b = open(publishes, 1);
    publishes.answered(a.req);
    publishes.failAll(new Error('MQTT broker thread exited'));
    expect(await state(a.done)).toBe('rejected: MQTT broker thread exited');
    expect(await state(b.done)).toBe('rejected: MQTT broker thread exited');
    expect(publishes.size).toBe(0);
  });

  it('fail when sending them throws', async () => {
    const publishes = new GatewayPublishes();
    const done = publishes.open(1, () => {
      throw new Error('could not clone');
    });
    expect(await state(done)).toBe('rejected: could not clone');
  });
});
