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

  it("answers the balancer's liveness check on a port of its own only when LIVENESS_PORT is set", async () => {
    expect(gw.livenessPort).toBeUndefined();
    const balanced = await startGateway({ LIVENESS_PORT: '0', LIVENESS_STALL_MS: '1500' });
    try {
      const r = await fetch(`http://127.0.0.1:${balanced.livenessPort}/health`);
      expect(r.status).toBe(200);
      expect(await r.json()).toMatchObject({ status: 'ok' });
      // the liveness port is not the API
      expect((await fetch(`http://127.0.0.1:${balanced.livenessPort}${systemContract.health.path}`)).status).toBe(404);
    } finally {
      await balanced.stop();
    }
  });

  it('answers the storage status to a signed-in user only', async () => {
    expect((await call(gw.url, systemContract.status, {})).status).toBe(401);
    const t = await tenantSession(gw.url);
    const r = await call(gw.url, systemContract.status, {}, { tenant: t.tenant });
    expect(r.body).toMatchObject({ response_result: 0, storage: 'ok', since: null });
  });
});
