// The gateway's own calls: the health check a load balancer asks (no session, no database) and the storage status
// the console shows (signed-in users only).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { tenantSession } from './fixtures.js';

describe('the system calls', () => {
  let gw: Running;
  beforeAll(async () => {
    gw = await startGateway();
  });
  afterAll(async () => gw?.stop());

  it('answers the health check without a session, in a few bytes', async () => {
    const r = await fetch(gw.url + systemContract.health.path);
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(JSON.parse(text)).toEqual({ response_result: 0, status: 'ok' });
    expect(text.length).toBeLessThan(64);
  });

  it('answers the storage status to a signed-in user only', async () => {
    expect((await call(gw.url, systemContract.status, {})).status).toBe(401);
    const t = await tenantSession(gw.url);
    const r = await call(gw.url, systemContract.status, {}, { tenant: t.tenant });
    expect(r.body).toMatchObject({ response_result: 0, storage: 'ok', since: null });
  });
});
