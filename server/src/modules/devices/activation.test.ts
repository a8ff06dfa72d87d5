// Gateway sightings are bounded: per client address at CONNECT, in all (the one heard longest ago makes room), and by
// age; the UID check answers "heard" only within that age. On both engines.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createActivation, SIGHTING_TTL_MS } from './activation.js';
import { createDevicesStore } from './devices.store.js';

forEachEngine('gateway sightings', (open) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(() => opened?.close());

  async function activation(limits: { sightings: number; perAddress: number }) {
    const { store } = opened;
    await store.exec(sql`delete from gateway_sightings`);
    let t = 1_800_000_000_000;
    const a = await createActivation(createDevicesStore(store), () => t, limits);
    const rows = async () => (await store.one<{ n: number }>(sql`select count(*) as n from gateway_sightings`))!.n;
    return { a, rows, advance: (ms: number) => (t += ms), now: () => t };
  }

  it('lets one client address bring a bounded number of unregistered UIDs a day, and the same ones again', async () => {
    const { a, advance } = await activation({ sightings: 100, perAddress: 3 });
    for (const uid of ['ZL1', 'ZL2', 'ZL3']) expect(a.admitUnclaimed(uid, '10.0.0.1')).toBe(true);
    expect(a.admitUnclaimed('ZL4', '10.0.0.1')).toBe(false);
    expect(a.admitUnclaimed('ZL2', '10.0.0.1')).toBe(true);
    expect(a.admitUnclaimed('ZL4', '10.0.0.2')).toBe(true);
    advance(86_400_001);
    expect(a.admitUnclaimed('ZL4', '10.0.0.1')).toBe(true);
  });

  it('keeps at most the limit: a new UID replaces the one heard longest ago, in the table and in memory', async () => {
    const { a, rows, advance, now } = await activation({ sightings: 3, perAddress: 100 });
    for (const uid of ['A1', 'A2', 'A3']) {
      await a.heard(uid, now());
      advance(1000);
    }
    await a.heard('A1', now() + 120_000); // heard again (past the write interval): the oldest is now A2
    advance(121_000);
    await a.heard('A4', now());
    expect(await rows()).toBe(3);
    expect(a.sightings()).toBe(3);
    expect(await a.lastHeard('A2')).toBeUndefined();
    for (const uid of ['A1', 'A3', 'A4']) expect(await a.lastHeard(uid)).toBeDefined();
    // a flood of new ones never grows it, also when they come at once
    await Promise.all(Array.from({ length: 50 }, (_, i) => a.heard(`F${i}`, now() + i)));
    expect(await rows()).toBe(3);
    expect(a.sightings()).toBe(3);
  });

  it('writes a gateway publishing again and again once a write interval, also while its first write runs', async () => {
    const { a, rows, now } = await activation({ sightings: 10, perAddress: 10 });
    await Promise.all([a.heard('B1', now()), a.heard('B1', now() + 10), a.heard('B1', now() + 20)]);
    expect(await rows()).toBe(1);
    expect(a.sightings()).toBe(1);
    expect(await a.lastHeard('B1')).toBe(now() + 20);
  });

  it('forgets a sighting not renewed within its age, in the table and for the UID check', async () => {
    const { a, rows, advance, now } = await activation({ sightings: 10, perAddress: 10 });
    await a.heard('OLD', now());
    advance(SIGHTING_TTL_MS / 2);
    await a.heard('NEW', now());
    advance(SIGHTING_TTL_MS / 2 + 1);
    expect(await a.lastHeard('OLD')).toBeUndefined();
    expect(await a.pruneSightings()).toBe(1);
    expect(await rows()).toBe(1);
    expect(a.sightings()).toBe(1);
    expect(await a.lastHeard('NEW')).toBeDefined();
  });

  it('counts the sightings a restart finds', async () => {
    const { a, now } = await activation({ sightings: 10, perAddress: 10 });
    await a.heard('R1', now());
    await a.heard('R2', now());
    const again = await createActivation(createDevicesStore(opened.store), now);
    expect(again.sightings()).toBe(2);
  });
});
