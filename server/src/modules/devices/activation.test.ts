// Gateway sightings are bounded: per client address at CONNECT, in all (the one heard longest ago makes room), and by
// age; the UID check answers "heard" only within that age.
import { describe, expect, it } from 'vitest';
import { findUp, openDb } from '../../platform/db/sqlite.js';
import * as schema from '../../schema.js';
import { createActivation, SIGHTING_TTL_MS } from './activation.js';

function activation(limits: { sightings: number; perAddress: number }) {
  const handle = openDb({ dataDir: ':memory:', schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  let t = 1_800_000_000_000;
  const a = createActivation(handle.db, () => t, limits);
  const rows = () => handle.sqlite.prepare('SELECT count(*) FROM gateway_sightings').pluck().get() as number;
  return { a, rows, advance: (ms: number) => (t += ms), now: () => t, handle };
}

describe('gateway sightings', () => {
  it('lets one client address bring a bounded number of unregistered UIDs a day, and the same ones again', () => {
    const { a, advance } = activation({ sightings: 100, perAddress: 3 });
    for (const uid of ['ZL1', 'ZL2', 'ZL3']) expect(a.admitUnclaimed(uid, '10.0.0.1')).toBe(true);
    expect(a.admitUnclaimed('ZL4', '10.0.0.1')).toBe(false);
    expect(a.admitUnclaimed('ZL2', '10.0.0.1')).toBe(true);
    expect(a.admitUnclaimed('ZL4', '10.0.0.2')).toBe(true);
    advance(86_400_001);
    expect(a.admitUnclaimed('ZL4', '10.0.0.1')).toBe(true);
  });

  it('keeps at most the limit: a new UID replaces the one heard longest ago, in the table and in memory', () => {
    const { a, rows, advance, now } = activation({ sightings: 3, perAddress: 100 });
    for (const uid of ['A1', 'A2', 'A3']) {
      a.heard(uid, now());
      advance(1000);
    }
    a.heard('A1', now() + 120_000); // heard again (past the write interval): the oldest is now A2
    advance(121_000);
    a.heard('A4', now());
    expect(rows()).toBe(3);
    expect(a.sightings()).toBe(3);
    expect(a.lastHeard('A2')).toBeUndefined();
    for (const uid of ['A1', 'A3', 'A4']) expect(a.lastHeard(uid)).toBeDefined();
    // a flood of new ones never grows it
    for (let i = 0; i < 50; i++) a.heard(`F${i}`, now() + i);
    expect(rows()).toBe(3);
  });

  it('forgets a sighting not renewed within its age, in the table and for the UID check', () => {
    const { a, rows, advance, now } = activation({ sightings: 10, perAddress: 10 });
    a.heard('OLD', now());
    advance(SIGHTING_TTL_MS / 2);
    a.heard('NEW', now());
    advance(SIGHTING_TTL_MS / 2 + 1);
    expect(a.lastHeard('OLD')).toBeUndefined();
    expect(a.pruneSightings()).toBe(1);
    expect(rows()).toBe(1);
    expect(a.sightings()).toBe(1);
    expect(a.lastHeard('NEW')).toBeDefined();
  });
});
