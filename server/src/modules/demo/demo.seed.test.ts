import { afterAll, describe, expect, it } from 'vitest';
import { startGateway } from '../../../test/harness.js';
import { seedDemo, DEMO } from './demo.seed.js';
import { authContract, appsContract } from '@sentra/contracts';
import { call } from '../../../test/harness.js';

describe('seedDemo', async () => {
  const gw = await startGateway();
  afterAll(() => gw.stop());

  it('creates the demo tenant and application once, and the demo sign-in works', async () => {
    const first = await seedDemo(gw.app.db.db);
    const second = await seedDemo(gw.app.db.db);
    expect(first.created).toBe(true);
    expect(second).toMatchObject({ created: false, tenantId: first.tenantId, appId: first.appId });
    const login = await call(gw.url, authContract.tenantLogin, { input: DEMO.username, pass: DEMO.password });
    expect(login.body.response_result).toBe(0);
    const list = await call(gw.url, appsContract.list, {}, { tenant: { id: login.body.id, token: login.body.token } });
    expect(list.body.data.map((a: { domain: string }) => a.domain)).toEqual([DEMO.domain]);
  });
});
