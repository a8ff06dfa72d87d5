// The demo seed: one tenant and one application made through their domains, idempotent on restart and when two
// gateways seed at once, on both engines; and the demo sign-in on a running gateway.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authContract, appsContract } from '@sentra/contracts';
import { call, startGateway } from '../../../test/harness.js';
import { verifyPassword } from '../../platform/crypto.js';
import { forEachEngine, type OpenedStore } from '../../testing/engines.js';
import { createAppsStore } from '../apps/apps.store.js';
import { createAuthStore } from '../auth/auth.store.js';
import { seedDemo, DEMO } from './demo.seed.js';

forEachEngine('seedDemo', (open) => {
  let opened: OpenedStore;
  beforeAll(async () => {
    opened = await open();
  });
  afterAll(() => opened?.close());

  it('creates the demo tenant and its application once; a restart finds them', async () => {
    const first = await seedDemo(opened.store);
    expect(first.created).toBe(true);
    expect(first.appId).toBeGreaterThan(0);
    const second = await seedDemo(opened.store);
    expect(second).toEqual({ created: false, tenantId: first.tenantId, appId: first.appId });
    const tenant = await createAuthStore(opened.store).tenantByUsername(DEMO.username);
    expect(tenant).toMatchObject({ id: first.tenantId, tenantName: 'PT Demo Sentra' });
    expect(await verifyPassword(DEMO.password, tenant!.passHash)).toBe(true);
    const apps = await createAppsStore(opened.store).listOf(first.tenantId);
    expect(apps).toEqual([expect.objectContaining({ id: first.appId, domain: DEMO.domain, name: DEMO.appName })]);
  });

  it('makes them once when two gateways seed at the same moment', async () => {
    const other = await open();
    try {
      const [a, b] = await Promise.all([seedDemo(other.store), seedDemo(other.store)]);
      expect([a.created, b.created].sort()).toEqual([false, true]);
      expect(a).toMatchObject({ tenantId: b.tenantId, appId: b.appId });
      expect(await createAppsStore(other.store).listOf(a.tenantId)).toHaveLength(1);
    } finally {
      await other.close();
    }
  });
});

describe('the demo on a gateway', async () => {
  const gw = await startGateway();
  afterAll(() => gw.stop());

  it('signs in with the demo tenant and lists its application', async () => {
    await seedDemo(gw.app.store);
    const login = await call(gw.url, authContract.tenantLogin, { input: DEMO.username, pass: DEMO.password });
    expect(login.body.response_result).toBe(0);
    const list = await call(gw.url, appsContract.list, {}, { tenant: { id: login.body.id, token: login.body.token } });
    expect(list.body.data.map((a: { domain: string }) => a.domain)).toEqual([DEMO.domain]);
  });
});
