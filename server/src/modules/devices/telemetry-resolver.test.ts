// The telemetry resolver's cache: a fleet first heard at once does not reload its rows at once every RESOLVER_CACHE_MS
// (the event-loop stall of the served ingest bench), and an edit still reaches ingest within RESOLVER_CACHE_MS.
import { describe, expect, it } from 'vitest';
import {
  ALONE_RESOLVER_CACHE_MS,
  cacheLifetime,
  createTelemetryResolver,
  RESOLVER_CACHE_MS,
  type ResolverRows,
} from './telemetry-resolver.js';
import type { DeviceIdentity } from './families/index.js';
import type { DeviceRow } from './devices.table.js';

const DEVICES = 5000;

function fleet() {
  const table = new Map<number, DeviceRow>();
  for (let id = 1; id <= DEVICES; id++)
    table.set(id, {
      id,
      appId: 7,
      category: 8,
      disabled: false,
      sensors: null,
      topic: null,
      devEui: null,
      uid: null,
    } as unknown as DeviceRow);
  let loads = 0;
  const rows: ResolverRows = {
    byId: (id) => (loads++, table.get(id)),
    idByEui: () => undefined,
    byToken: () => undefined,
  };
  let t = 1_000_000;
  const events = new Map<string, (row: DeviceRow) => void>();
  const registry = {
    on: (event: string, fn: (row: DeviceRow) => void) => void events.set(event, fn),
  } as never;
  const resolver = createTelemetryResolver(rows, registry, { now: () => t });
  const identity = (id: number) => ({ key: `device:${id}`, role: 'device', deviceId: id, appId: 7 }) as DeviceIdentity;
  return {
    table,
    emit: (event: string, id: number) => events.get(event)?.(table.get(id)!),
    resolver,
    identity,
    advance: (ms: number) => (t += ms),
    get loads() {
      return loads;
    },
    resetLoads: () => void (loads = 0),
  };
}

describe('telemetry resolver cache', () => {
  it('keeps a row between half and all of RESOLVER_CACHE_MS', () => {
    expect(cacheLifetime(() => 0)).toBe(RESOLVER_CACHE_MS / 2);
    expect(cacheLifetime(() => 0.999999)).toBeLessThan(RESOLVER_CACHE_MS);
    // a gateway alone keeps rows longer: its own edits evict them at once
    expect(cacheLifetime(() => 0, ALONE_RESOLVER_CACHE_MS)).toBe(ALONE_RESOLVER_CACHE_MS / 2);
  });

  it('spreads the reloads of a fleet first heard at once instead of reloading it at once every period', () => {
    const f = fleet();
    for (let id = 1; id <= DEVICES; id++) f.resolver.resolveDevice(f.identity(id));
    expect(f.loads).toBe(DEVICES);
    // every device publishes every 100 ms for four periods: reloads per 100 ms stay a small share of the fleet
    let most = 0;
    let total = 0;
    for (let step = 0; step < (4 * RESOLVER_CACHE_MS) / 100; step++) {
      f.advance(100);
      f.resetLoads();
      for (let id = 1; id <= DEVICES; id++) f.resolver.resolveDevice(f.identity(id));
      most = Math.max(most, f.loads);
      total += f.loads;
    }
    // uniform over 2.5 s: ~200 a step (the unspread cache reloaded all 5,000 in one step)
    expect(most).toBeLessThan(DEVICES / 10);
    // and each row is still reloaded at least once per RESOLVER_CACHE_MS
    expect(total).toBeGreaterThanOrEqual(4 * DEVICES - DEVICES);
  });

  it('serves an edited row within RESOLVER_CACHE_MS', () => {
    const f = fleet();
    expect(f.resolver.resolveDevice(f.identity(3))).toMatchObject({ deviceId: 3, category: 8, disabled: false });
    f.table.set(3, { ...f.table.get(3)!, disabled: true });
    f.advance(RESOLVER_CACHE_MS);
    expect(f.resolver.resolveDevice(f.identity(3))).toMatchObject({ deviceId: 3, disabled: true });
  });

  it("serves this gateway's edit (sensor configuration, enable) at once", () => {
    const f = fleet();
    expect(f.resolver.resolveDevice(f.identity(5))).toMatchObject({ category: 8 });
    f.table.set(5, { ...f.table.get(5)!, category: 9 });
    f.emit('updated', 5);
    expect(f.resolver.resolveDevice(f.identity(5))).toMatchObject({ category: 9 });
    f.table.set(5, { ...f.table.get(5)!, sensors: JSON.stringify({ params: [] }) });
    const loads = f.loads;
    f.emit('sensors', 5);
    f.resolver.resolveDevice(f.identity(5));
    expect(f.loads).toBe(loads + 1);
  });

  it("serves another gateway's edit (scale-out) as soon as the bus brings it", () => {
    const f = fleet();
    expect(f.resolver.resolveDevice(f.identity(6))).toMatchObject({ deviceId: 6, disabled: false });
    f.table.set(6, { ...f.table.get(6)!, disabled: true });
    // no local event: the edit was made through another gateway
    expect(f.resolver.resolveDevice(f.identity(6))).toMatchObject({ disabled: false });
    f.resolver.changed({ event: 'disabled', id: 6, appId: 1, devEui: null });
    expect(f.resolver.resolveDevice(f.identity(6))).toMatchObject({ deviceId: 6, disabled: true });
    // a secret changes nothing the resolver keeps: the row stays cached
    const loads = f.loads;
    f.resolver.changed({ event: 'secret', id: 6, appId: 1, devEui: null });
    f.resolver.resolveDevice(f.identity(6));
    expect(f.loads).toBe(loads);
  });

  it('forgets a device at once', () => {
    const f = fleet();
    f.resolver.resolveDevice(f.identity(4));
    f.table.delete(4);
    expect(f.resolver.resolveDevice(f.identity(4))).not.toBeNull();
    f.resolver.forget(4);
    expect(f.resolver.resolveDevice(f.identity(4))).toBeNull();
  });
});
