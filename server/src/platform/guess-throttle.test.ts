// The guessing rule on its own (a clock and a sleep of the test's): a failing pair blocks itself only, a principal
// guessed from many addresses is slowed for every address that never signed in to it and never for one that did, an
// address counts unknown names only.
import { describe, expect, it } from 'vitest';
import { createGuessThrottle } from './guess-throttle.js';

function throttle(over: Partial<Parameters<typeof createGuessThrottle>[0]> = {}) {
  const slept: number[] = [];
  let t = 1_000_000;
  const g = createGuessThrottle({
    name: `t${Math.random()}`,
    pair: { attempts: 3, windowS: 60 },
    principal: { attempts: 4, windowS: 60 },
    address: { attempts: 5, windowS: 60 },
    maxWaitMs: 10_000,
    now: () => t,
    sleep: async (ms) => void slept.push(ms),
    ...over,
  });
  return { g, slept, advance: (ms: number) => (t += ms) };
}
type G = ReturnType<typeof throttle>['g'];
/** one wrong attempt, as a caller makes it: enter, then the failure */
async function guess(g: G, principal: string, address: string, known = true) {
  const entry = await g.enter(principal, address);
  if (entry.go) await g.failed(principal, address, known);
  return entry;
}
/** one right attempt */
async function signIn(g: G, principal: string, address: string) {
  const entry = await g.enter(principal, address);
  if (entry.go) await g.succeeded(principal, address);
  return entry;
}

describe('guessing, throttled without locking out the innocent', () => {
  it('blocks a pair after its failures, and only that pair: the name elsewhere and the address for others go on', async () => {
    const { g } = throttle();
    for (let i = 0; i < 3; i++) expect((await guess(g, 'dev-a', '10.0.0.1')).go).toBe(true);
    expect(await g.enter('dev-a', '10.0.0.1')).toMatchObject({ go: false, why: 'pair' });
    expect(await g.enter('dev-b', '10.0.0.1')).toEqual({ go: true, waitedMs: 0 });
    expect(await g.enter('dev-a', '10.0.0.2')).toEqual({ go: true, waitedMs: 0 });
    expect(g.metrics().pair_refused).toBe(1);
  });

  it('a success starts the pair afresh', async () => {
    const { g } = throttle();
    await guess(g, 'dev-a', '10.0.0.1');
    await guess(g, 'dev-a', '10.0.0.1');
    await signIn(g, 'dev-a', '10.0.0.1');
    await guess(g, 'dev-a', '10.0.0.1');
    await guess(g, 'dev-a', '10.0.0.1');
    expect((await g.enter('dev-a', '10.0.0.1')).go).toBe(true);
  });

  it('counts an attempt before its check: of many sent at once at one pair, only the limit is checked', async () => {
    const { g } = throttle();
    const entries = await Promise.all(Array.from({ length: 10 }, () => g.enter('dev-a', '10.0.0.1')));
    expect(entries.filter((e) => e.go)).toHaveLength(3);
  });

  it('slows a name guessed from many addresses: one attempt per turn, the owner from a known address not at all', async () => {
    const { g, slept } = throttle();
    await signIn(g, 'budi', '10.9.9.9'); // the owner's usual address
    for (let i = 0; i < 4; i++) await guess(g, 'budi', `10.0.1.${i}`); // 4 addresses, one guess each
    // a fifth guesser: its turn at once, the next ones spaced by the window over the attempts (15 s, capped at 5 s)
    expect(await g.enter('budi', '10.0.2.1')).toEqual({ go: true, waitedMs: 0 });
    expect(await g.enter('budi', '10.0.2.2')).toEqual({ go: true, waitedMs: 5000 });
    expect(await g.enter('budi', '10.0.2.3')).toEqual({ go: true, waitedMs: 10_000 });
    // past the longest wait: not now, and told when
    expect(await g.enter('budi', '10.0.2.4')).toEqual({ go: false, retryMs: 15_000, why: 'principal' });
    expect(slept).toEqual([5000, 10_000]);
    // the owner from the address that signed in before: no wait
    expect(await g.enter('budi', '10.9.9.9')).toEqual({ go: true, waitedMs: 0 });
    // another name is not slowed
    expect(await g.enter('siti', '10.0.2.5')).toEqual({ go: true, waitedMs: 0 });
    expect(g.metrics()).toMatchObject({ principal_slowed: 3, principal_refused: 1 });
  });

  it('counts unknown names per address, never known ones, and refuses clients without credentials past the limit', async () => {
    const { g } = throttle();
    for (let i = 0; i < 10; i++) await guess(g, 'budi', '10.0.0.7');
    expect(await g.addressWait('10.0.0.7')).toBe(0);
    for (let i = 0; i < 3; i++) await guess(g, `siapa-${i}`, '10.0.0.7', false);
    expect(await g.takeAddress('10.0.0.7')).toBe(true);
    expect(await g.takeAddress('10.0.0.7')).toBe(true);
    expect(await g.takeAddress('10.0.0.7')).toBe(false);
    expect(await g.addressWait('10.0.0.7')).toBeGreaterThan(0);
    expect(await g.takeAddress('10.0.0.8')).toBe(true);
  });
});
