import { describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../platform/bus/memory.js';
import { createLogger } from '../../platform/log.js';
import type { DeviceRow } from './devices.table.js';
import { REGISTRY_SUBJECT, shareRegistryChanges, type RegistryChange, type SharedEvent } from './registry-changes.js';

/** a registry whose events the test fires */
function registry() {
  const listeners = new Map<string, ((row: DeviceRow) => void)[]>();
  return {
    on: (event: SharedEvent, fn: (row: DeviceRow) => void) =>
      listeners.set(event, [...(listeners.get(event) ?? []), fn]),
    fire: (event: SharedEvent, row: Partial<DeviceRow>) =>
      listeners.get(event)?.forEach((fn) => fn({ tokenId: null, uid: null, devEui: null, ...row } as DeviceRow)),
  };
}

describe("the registry's changes across gateways (scale-out)", () => {
  it("tells each gateway the other's changes, not its own, with what a kick and the resolver need", async () => {
    // one in-process bus standing in for NATS: two gateways on it
    const memory = createMemoryBus(createLogger('silent'));
    const bus = Object.assign(Object.create(memory) as typeof memory, { kind: 'nats' as const });
    const [a, b] = [registry(), registry()];
    const [onA, onB] = [shareRegistryChanges(bus, a), shareRegistryChanges(bus, b)];
    const heardA: RegistryChange[] = [];
    const heardB: RegistryChange[] = [];
    onA.on((c) => heardA.push(c));
    onB.on((c) => heardB.push(c));
    a.fire('secret', { id: 7, appId: 3, tokenId: 11 });
    b.fire('added', { id: 8, appId: 3, devEui: '70B3D57ED0000001' });
    await bus.flush();
    expect(heardB).toMatchObject([{ event: 'secret', id: 7, appId: 3, tokenId: 11, uid: null }]);
    expect(heardA).toMatchObject([{ event: 'added', id: 8, devEui: '70B3D57ED0000001' }]);
    onA.close();
    onB.close();
    await memory.close();
  });

  it('publishes nothing on the in-process bus (there is no other gateway)', async () => {
    const bus = createMemoryBus(createLogger('silent'));
    const seen: unknown[] = [];
    bus.subscribe(REGISTRY_SUBJECT, ({ data }) => void seen.push(data));
    const r = registry();
    shareRegistryChanges(bus, r);
    r.fire('removed', { id: 1, appId: 1 });
    await bus.flush();
    expect(seen).toEqual([]);
    await bus.close();
  });
});
