// The telemetry resolver's cache: a fleet first heard at once does not reload its rows at once every RESOLVER_CACHE_MS
// (the event-loop stall of the served ingest bench), an edit still reaches ingest within RESOLVER_CACHE_MS (and a
// read), a row not cached is read once however many messages wait for it; and the rows it reads, on both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import {
  ALONE_RESOLVER_CACHE_MS,
  cacheLifetime,
  createTelemetryResolver,
  deviceRows,
  RESOLVER_CACHE_MS,
  type ResolverRows,
} from './telemetry-resolver.js';
import type { DeviceIdentity } from './families/index.js';
import type { DeviceRow } from './devices.table.js';
import { createDevicesStore } from './devices.store.js';
import { seedApplications } from './testing/applications.js';

/** lets the reads under way (and what waits for them) finish */
const settle = () => new Promise((r) => setImmediate(r));

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
    byId: async (id) => (loads++, table.get(id)),
    idByEui: async () => undefined,
    byToken: async () => undefined,
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

  it('spreads the reloads of a fleet first heard at once instead of reloading it at once every period', async () => {
    const f = fleet();
    await Promise.all(Array.from({ length: DEVICES }, (_, i) => f.resolver.resolveDevice(f.identity(i + 1))));
    expect(f.loads).toBe(DEVICES);
    // every device publishes every 100 ms for four periods: reloads per 100 ms stay a small share of the fleet
    let most = 0;
    let total = 0;
    let waited = 0;
    for (let step = 0; step < (4 * RESOLVER_CACHE_MS) / 100; step++) {
      f.advance(100);
      f.resetLoads();
      // a cached row answers at once, an expired one too while it reloads
      for (let id = 1; id <= DEVICES; id++) if (f.resolver.resolveDevice(f.identity(id)) instanceof Promise) waited++;
      await settle();
      most = Math.max(most, f.loads);
      total += f.loads;
    }
    // uniform over 2.5 s: ~200 a step (the unspread cache reloaded all 5,000 in one step)
    expect(most).toBeLessThan(DEVICES / 10);
    // and each row is still reloaded at least once per RESOLVER_CACHE_MS
    expect(total).toBeGreaterThanOrEqual(4 * DEVICES - DEVICES);
    expect(waited).toBe(0);
  });

  it('serves an edited row within RESOLVER_CACHE_MS and a read', async () => {
    const f = fleet();
    expect(await f.resolver.resolveDevice(f.identity(3))).toMatchObject({ deviceId: 3, category: 8, disabled: false });
    f.table.set(3, { ...f.table.get(3)!, disabled: true });
    f.advance(RESOLVER_CACHE_MS);
    // expired: the old row answers while the new one is read
    expect(f.resolver.resolveDevice(f.identity(3))).toMatchObject({ deviceId: 3, disabled: false });
    await settle();
    expect(f.resolver.resolveDevice(f.identity(3))).toMatchObject({ deviceId: 3, disabled: true });
  });

  it('reads a row not cached once, however many messages wait for it', async () => {
    const f = fleet();
    const waits = [1, 2, 3].map(() => f.resolver.resolveDevice(f.identity(9)));
    expect(waits[0]).toBeInstanceOf(Promise);
    expect(f.loads).toBe(1);
    for (const w of await Promise.all(waits)) expect(w).toMatchObject({ deviceId: 9 });
    expect(f.resolver.resolveDevice(f.identity(9))).toMatchObject({ deviceId: 9 });
    expect(f.loads).toBe(1);
  });

  it('does not cache a row read before an edit that came during the read', async () => {
    const f = fleet();
    const first = f.resolver.resolveDevice(f.identity(10));
    f.table.set(10, { ...f.table.get(10)!, category: 9 });
    f.emit('updated', 10);
    expect(await first).toMatchObject({ category: 8 });
    expect(await f.resolver.resolveDevice(f.identity(10))).toMatchObject({ category: 9 });
  });

  it("serves this gateway's edit (sensor configuration, enable) at once", async () => {
    const f = fleet();
    expect(await f.resolver.resolveDevice(f.identity(5))).toMatchObject({ category: 8 });
    f.table.set(5, { ...f.table.get(5)!, category: 9 });
    f.emit('updated', 5);
    expect(await f.resolver.resolveDevice(f.identity(5))).toMatchObject({ category: 9 });
    f.table.set(5, { ...f.table.get(5)!, sensors: JSON.stringify({ params: [] }) });
    const loads = f.loads;
    f.emit('sensors', 5);
    await f.resolver.resolveDevice(f.identity(5));
    expect(f.loads).toBe(loads + 1);
  });

  it("serves another gateway's edit (scale-out) as soon as the bus brings it", async () => {
    const f = fleet();
    expect(await f.resolver.resolveDevice(f.identity(6))).toMatchObject({ deviceId: 6, disabled: false });
    f.table.set(6, { ...f.table.get(6)!, disabled: true });
    // no local event: the edit was made through another gateway
    expect(f.resolver.resolveDevice(f.identity(6))).toMatchObject({ disabled: false });
    f.resolver.changed({ event: 'disabled', id: 6, appId: 1, devEui: null });
    expect(await f.resolver.resolveDevice(f.identity(6))).toMatchObject({ deviceId: 6, disabled: true });
    // a secret changes nothing the resolver keeps: the row stays cached
    const loads = f.loads;
    f.resolver.changed({ event: 'secret', id: 6, appId: 1, devEui: null });
    expect(f.resolver.resolveDevice(f.identity(6))).toMatchObject({ deviceId: 6 });
    expect(f.loads).toBe(loads);
  });

  it('forgets a device at once', async () => {
    const f = fleet();
    await f.resolver.resolveDevice(f.identity(4));
    f.table.delete(4);
    expect(f.resolver.resolveDevice(f.identity(4))).not.toBeNull();
    f.resolver.forget(4);
    expect(await f.resolver.resolveDevice(f.identity(4))).toBeNull();
  });
});

forEachEngine('telemetry resolver rows', (open) => {
  let opened: OpenedStore;
  let rows: ResolverRows;
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    opened = await open();
    await seedApplications(opened.store);
    const devices = createDevicesStore(opened.store);
    const add = async (name: string, appId: number, over: Record<string, unknown>) =>
      (ids[name] = (
        await devices.insert({
          appId,
          category: 1,
          deviceType: 'DUMMY',
          name,
          serialNumber: name,
          createdAt: 1,
          updatedAt: 1,
          ...over,
        })
      ).id);
    await add('plain', 1, { sensors: '{"params":[]}', topic: 'sentra_plain', uid: 'ZL-1' });
    await add('lora', 1, { category: 6, devEui: '70B3D57ED0000001' });
    await add('lora2', 2, { category: 6, devEui: '70B3D57ED0000001', disabled: true });
    await add('token', 1, { tokenId: 41 });
    rows = deviceRows(opened.store);
  });
  afterAll(() => opened?.close());

  it("reads a device's context columns by id", async () => {
    expect(await rows.byId(ids.plain!)).toEqual({
      id: ids.plain,
      appId: 1,
      category: 1,
      topic: 'sentra_plain',
      devEui: null,
      uid: 'ZL-1',
      sensors: '{"params":[]}',
      disabled: false,
    });
    expect(await rows.byId(ids.lora2!)).toMatchObject({ appId: 2, disabled: true, devEui: '70B3D57ED0000001' });
    expect(await rows.byId(999_999)).toBeUndefined();
  });

  it('finds a DevEUI within its application only', async () => {
    expect(await rows.idByEui(1, '70B3D57ED0000001')).toBe(ids.lora);
    expect(await rows.idByEui(2, '70B3D57ED0000001')).toBe(ids.lora2);
    expect(await rows.idByEui(1, '70B3D57ED0000002')).toBeUndefined();
  });

  it("finds a token's device", async () => {
    expect(await rows.byToken(41)).toEqual({ id: ids.token, disabled: false });
    expect(await rows.byToken(42)).toBeUndefined();
  });

  it('resolves through the store: a miss waits for the read, then answers at once', async () => {
    const resolver = createTelemetryResolver(rows, { on: () => undefined } as never, { lifetime: () => 60_000 });
    const identity = { key: 'd', role: 'device', deviceId: ids.plain, appId: 1 } as DeviceIdentity;
    const miss = resolver.resolveDevice(identity);
    expect(miss).toBeInstanceOf(Promise);
    expect(await miss).toMatchObject({ deviceId: ids.plain, appId: 1, tasmotaTopic: 'sentra_plain', uid: 'ZL-1' });
    expect(resolver.resolveDevice(identity)).toMatchObject({ deviceId: ids.plain });
    const server = { key: 'ns', role: 'networkServer', appId: 1 } as DeviceIdentity;
    const topic = 'application/1/device/70b3d57ed0000001/event/up';
    expect(await resolver.resolveDevice(server, topic)).toMatchObject({ deviceId: ids.lora, appId: 1 });
    expect(resolver.resolveDevice(server, topic)).toMatchObject({ deviceId: ids.lora });
    // another application's network server does not reach it
    const other = { key: 'ns2', role: 'networkServer', appId: 2 } as DeviceIdentity;
    expect(await resolver.resolveDevice(other, 'application/2/device/70b3d57ed0000009/event/up')).toBeNull();
    const token = { key: 't', role: 'token', tokenId: 41, appId: 1 } as DeviceIdentity;
    expect(await resolver.resolveDevice(token)).toMatchObject({ deviceId: ids.token });
  });
});
