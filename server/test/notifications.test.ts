// Notification delivery with the real gateway: the outbox the rules engine writes into, the worker, and real
// transports talking to a real SMTP server and local HTTP "providers" on ephemeral loopback ports.
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appsContract } from '@sentra/contracts';
import { call, startGateway, type Running } from './harness.js';
import { tenantWithApp, until } from './fixtures.js';
import { startMailSink, type MailSink } from './support/mail-sink.js';
import { startProviderSink, type ProviderSink } from './support/provider-sink.js';
import { startNatsServer } from '../src/platform/bus/testing/nats-server.js';
import type { OutboxMessage } from '../src/modules/notifications/outbox.js';

const cleanup: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function gateway(env: Record<string, string>): Promise<Running> {
  const gw = await startGateway({ NOTIFY_RETRY_BASE_MS: '100', ...env });
  cleanup.push(() => gw.stop());
  return gw;
}
async function mailSink(opts?: Parameters<typeof startMailSink>[0]): Promise<MailSink> {
  const s = await startMailSink(opts);
  cleanup.push(() => s.close());
  return s;
}
async function providerSink(): Promise<ProviderSink> {
  const s = await startProviderSink();
  cleanup.push(() => s.close());
  return s;
}

/** A tenant, its application and a task id to hang messages on (the rules engine's tasks are another branch's). */
async function owner(gw: Running) {
  const t = await tenantWithApp(gw.url);
  return { ...t, taskId: 7 };
}

function message(
  o: { tenant: { id: number }; appId: number; taskId: number },
  over: Partial<OutboxMessage>,
): OutboxMessage {
  return {
    tenantId: o.tenant.id,
    appId: o.appId,
    taskId: o.taskId,
    ruleId: 3,
    event: 'new',
    channel: 'EMAIL',
    recipient: 'ops@contoh.id',
    subject: 'Tangki hampir kosong',
    body: 'Level solar 9 % di Genset-01',
    ...over,
  };
}

const deliveries = (gw: Running, o: { appId: number; taskId: number }) => gw.app.outbox.listForTask(o.appId, o.taskId);

/** the gateway's worker is done with all it would send: nothing queued, being sent or in flight */
const idle = async (gw: Running) => {
  const m = await gw.app.notifications.metrics();
  return m.outbox.queued === 0 && m.outbox.sending === 0 && m.in_flight === 0;
};

/** A loopback port with nothing listening on it (connection refused). */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('notifications by email', () => {
  it('delivers a queued message over SMTP with the sender, recipient, subject and text, and marks it sent', async () => {
    const sink = await mailSink({ login: { user: 'sentra', pass: 'r4hasia' } });
    const gw = await gateway({ SMTP_URL: sink.url, SMTP_FROM: 'Sentra <alerts@contoh.id>' });
    const o = await owner(gw);
    await gw.app.store.tx(() => gw.app.outbox.enqueue([message(o, { recipient: 'ops@contoh.id' })]));
    const [mail] = await sink.waitFor(1);
    expect(mail).toMatchObject({
      fromAddress: 'alerts@contoh.id',
      from: '"Sentra" <alerts@contoh.id>',
      toAddresses: ['ops@contoh.id'],
      envelopeFrom: 'alerts@contoh.id',
      envelopeTo: ['ops@contoh.id'],
      subject: 'Tangki hampir kosong',
      text: 'Level solar 9 % di Genset-01',
      user: 'sentra',
    });
    expect(await until(async () => (await deliveries(gw, o))[0]?.status === 'sent')).toBe(true);
    expect(await deliveries(gw, o)).toMatchObject([
      { channel: 'EMAIL', recipient: 'ops@contoh.id', status: 'sent', attempts: 1, last_error: null },
    ]);
    expect(await gw.app.notifications.metrics()).toMatchObject({
      outbox: { sent: 1 },
      channels: expect.arrayContaining(['EMAIL', 'WEBHOOK']),
    });
  });

  it('fails a message the SMTP server refuses for good (550) with its reason, without retrying', async () => {
    const sink = await mailSink();
    sink.refuseNext(1, 550, 'Mailbox unavailable');
    const gw = await gateway({ SMTP_URL: sink.url, SMTP_FROM: 'alerts@contoh.id' });
    const o = await owner(gw);
    await gw.app.outbox.enqueue([message(o, {})]);
    expect(await until(async () => (await deliveries(gw, o))[0]?.status === 'failed', 5000)).toBe(true);
    expect((await deliveries(gw, o))[0]).toMatchObject({
      attempts: 1,
      last_error: expect.stringContaining('Mailbox unavailable'),
    });
    expect(sink.messages).toEqual([]);
  });

  it('retries after a temporary refusal (451) and then delivers', async () => {
    const sink = await mailSink();
    sink.refuseNext(1, 451, 'Try again later');
    const gw = await gateway({ SMTP_URL: sink.url, SMTP_FROM: 'alerts@contoh.id' });
    const o = await owner(gw);
    await gw.app.outbox.enqueue([message(o, {})]);
    await sink.waitFor(1, 8000);
    expect(await until(async () => (await deliveries(gw, o))[0]?.status === 'sent', 5000)).toBe(true);
    expect((await deliveries(gw, o))[0]).toMatchObject({
      attempts: 2,
      last_error: expect.stringContaining('Try again later'),
    });
  });
});

describe('notifications by SMS and WhatsApp', () => {
  it('sends an SMS as a Twilio-style form POST with basic auth, and a WhatsApp text through the Cloud API with the bearer token', async () => {
    const sms = await providerSink();
    const wa = await providerSink();
    wa.respond({ status: 200, body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.1' }] } });
    const gw = await gateway({
      SMS_API_URL: sms.url,
      SMS_ACCOUNT_SID: 'AC0123456789',
      SMS_AUTH_TOKEN: 'sms-token',
      SMS_FROM: '+15005550006',
      WHATSAPP_API_URL: `${wa.url}/v21.0`,
      WHATSAPP_PHONE_NUMBER_ID: '106540352242922',
      WHATSAPP_TOKEN: 'wa-token',
    });
    const o = await owner(gw);
    await gw.app.outbox.enqueue([
      message(o, { channel: 'SMS', recipient: '+6281234567890', subject: undefined }),
      message(o, { channel: 'WHATSAPP', recipient: '+6281298765432', subject: undefined }),
    ]);
    const [smsReq] = await sms.waitFor(1);
    expect(smsReq).toMatchObject({ method: 'POST', path: '/2010-04-01/Accounts/AC0123456789/Messages.json' });
    expect(smsReq!.headers.authorization).toBe(`Basic ${Buffer.from('AC0123456789:sms-token').toString('base64')}`);
    expect(smsReq!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(smsReq!.form).toEqual({ To: '+6281234567890', From: '+15005550006', Body: 'Level solar 9 % di Genset-01' });
    const [waReq] = await wa.waitFor(1);
    expect(waReq).toMatchObject({ method: 'POST', path: '/v21.0/106540352242922/messages' });
    expect(waReq!.headers.authorization).toBe('Bearer wa-token');
    expect(waReq!.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '6281298765432',
      type: 'text',
      text: { preview_url: false, body: 'Level solar 9 % di Genset-01' },
    });
    expect(await until(async () => (await deliveries(gw, o)).every((d) => d.status === 'sent'))).toBe(true);
  });
});

describe('a provider that is down', () => {
  it('fails the attempt with the reason (connection refused) and retries later, up to the last attempt', async () => {
    const gw = await gateway({
      SMS_API_URL: `http://127.0.0.1:${await closedPort()}`,
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 't',
      SMS_FROM: '+15005550006',
      NOTIFY_MAX_ATTEMPTS: '3',
    });
    const o = await owner(gw);
    await gw.app.outbox.enqueue([message(o, { channel: 'SMS', recipient: '+6281234567890' })]);
    expect(await until(async () => (await deliveries(gw, o))[0]?.status === 'failed', 8000)).toBe(true);
    expect((await deliveries(gw, o))[0]).toMatchObject({
      attempts: 3,
      last_error: expect.stringContaining('ECONNREFUSED'),
      sent_at: null,
    });
  });

  it('retries a message the provider answered with 500, and delivers it once the provider is back', async () => {
    const sms = await providerSink();
    sms.respond((req) =>
      sms.requests.indexOf(req) === 0
        ? { status: 500, body: { message: 'internal error' } }
        : { status: 201, body: { sid: 'SM2' } },
    );
    const gw = await gateway({
      SMS_API_URL: sms.url,
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 't',
      SMS_FROM: '+15005550006',
    });
    const o = await owner(gw);
    await gw.app.outbox.enqueue([message(o, { channel: 'SMS', recipient: '+6281234567890' })]);
    await sms.waitFor(2, 8000);
    expect(await until(async () => (await deliveries(gw, o))[0]?.status === 'sent')).toBe(true);
    expect((await deliveries(gw, o))[0]).toMatchObject({
      attempts: 2,
      last_error: 'SMS provider answered HTTP 500: {"message":"internal error"}',
    });
  });

  it('times out a slow provider, while the gateway keeps answering its calls', async () => {
    const wa = await providerSink();
    wa.respond({ status: 200, body: {}, delayMs: 8000 });
    const gw = await gateway({
      WHATSAPP_API_URL: wa.url,
      WHATSAPP_PHONE_NUMBER_ID: '1',
      WHATSAPP_TOKEN: 't',
      NOTIFY_TIMEOUT_MS: '3000',
      NOTIFY_RETRY_BASE_MS: '60000',
    });
    const o = await owner(gw);
    await gw.app.outbox.enqueue(
      Array.from({ length: 5 }, () => message(o, { channel: 'WHATSAPP', recipient: '+6281234567890' })),
    );
    await wa.waitFor(5);
    // the provider hangs; the gateway does not: the call is answered while every delivery still waits for it (measured
    // against the deliveries' own time-out, not a wall-clock bound a starved machine may miss)
    const list = await call(gw.url, appsContract.list, {}, { tenant: o.tenant });
    expect(list.body.response_result).toBe(0);
    expect((await deliveries(gw, o)).every((d) => d.status === 'sending')).toBe(true);
    expect(
      await until(async () => (await deliveries(gw, o)).every((d) => d.status === 'queued' && d.attempts === 1), 8000),
    ).toBe(true);
    expect((await deliveries(gw, o))[0]!.last_error).toBe('no answer within 3000 ms');
  });
});

describe('muted and not configured messages', () => {
  it('never sends the messages of a muted task', async () => {
    const sms = await providerSink();
    const gw = await gateway({
      SMS_API_URL: sms.url,
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 't',
      SMS_FROM: '+15005550006',
      NOTIFY_RETRY_BASE_MS: '60000',
    });
    const o = await owner(gw);
    // muted when queued, and muted after queueing (task/notification/activate false) before the worker got to it
    await gw.app.store.tx(async () => {
      await gw.app.outbox.enqueue([message(o, { channel: 'SMS', recipient: '+6281234567890', event: 'new' })], {
        muted: true,
      });
      await gw.app.outbox.enqueue([message(o, { channel: 'SMS', recipient: '+6281234567890', event: 'response' })]);
      await gw.app.outbox.muteTask(o.taskId);
    });
    // a message of another task goes out: the worker ran
    await gw.app.outbox.enqueue([
      message(o, { taskId: 8, channel: 'SMS', recipient: '+6281234567890', subject: undefined, body: 'lain' }),
    ]);
    await sms.waitFor(1);
    // the worker is done with all it would send: a muted message it sent would be there
    expect(await until(() => idle(gw))).toBe(true);
    expect(sms.requests.map((r) => r.form.Body)).toEqual(['lain']);
    expect((await deliveries(gw, o)).map((d) => [d.event, d.status, d.attempts])).toEqual([
      ['new', 'muted', 0],
      ['response', 'muted', 0],
    ]);
  });

  it('keeps messages of a channel with no configuration as not_configured, visible with the task', async () => {
    const gw = await gateway({});
    const o = await owner(gw);
    await gw.app.outbox.enqueue([message(o, {}), message(o, { channel: 'WHATSAPP', recipient: '+6281234567890' })]);
    expect(await until(async () => (await deliveries(gw, o)).every((d) => d.status === 'not_configured'))).toBe(true);
    expect(await deliveries(gw, o)).toMatchObject([
      {
        channel: 'EMAIL',
        recipient: 'ops@contoh.id',
        subject: 'Tangki hampir kosong',
        status: 'not_configured',
        attempts: 0,
        last_error: null,
      },
      { channel: 'WHATSAPP', status: 'not_configured' },
    ]);
    expect((await gw.app.notifications.metrics()).outbox).toMatchObject({ not_configured: 2, queued: 0 });
  });
});

describe('webhooks', () => {
  it('refuses a loopback webhook address unless WEBHOOK_ALLOW_PRIVATE is on', async () => {
    const hook = await providerSink();
    const gw = await gateway({});
    const o = await owner(gw);
    await gw.app.outbox.enqueue([
      message(o, { channel: 'WEBHOOK', recipient: `${hook.url}/in` }),
      message(o, { channel: 'WEBHOOK', recipient: `http://localhost:${hook.port}/in` }),
    ]);
    expect(await until(async () => (await deliveries(gw, o)).every((d) => d.status === 'failed'))).toBe(true);
    expect((await deliveries(gw, o)).map((d) => d.last_error)).toEqual([
      expect.stringContaining('is not public; set WEBHOOK_ALLOW_PRIVATE=on'),
      expect.stringContaining('is not public; set WEBHOOK_ALLOW_PRIVATE=on'),
    ]);
    expect(hook.requests).toEqual([]);
  });

  it('posts the notification as signed JSON when allowed', async () => {
    const hook = await providerSink();
    hook.respond({ status: 204 });
    const gw = await gateway({ WEBHOOK_ALLOW_PRIVATE: 'on', WEBHOOK_SECRET: 'sixteen-chars-secret' });
    const o = await owner(gw);
    await gw.app.outbox.enqueue([
      message(o, { channel: 'WEBHOOK', recipient: `${hook.url}/in`, body: '{"device":"Genset-01","value":9}' }),
    ]);
    const [req] = await hook.waitFor(1);
    const id = (await deliveries(gw, o))[0]!.id;
    expect(req).toMatchObject({
      method: 'POST',
      path: '/in',
      json: {
        id,
        event: 'new',
        app_id: o.appId,
        task_id: o.taskId,
        text: '{"device":"Genset-01","value":9}',
        data: { device: 'Genset-01', value: 9 },
      },
    });
    expect(req!.headers['x-sentra-delivery']).toBe(String(id));
    const { signature } = await import('../src/modules/notifications/channels/webhook/transport.js');
    expect(req!.headers['x-sentra-signature']).toBe(
      signature('sixteen-chars-secret', Number(req!.headers['x-sentra-timestamp']), req!.body),
    );
    expect(await until(async () => (await deliveries(gw, o))[0]?.status === 'sent')).toBe(true);
  });
});

describe('restart and scale-out', () => {
  it('sends after a restart the message that was in flight when the gateway stopped', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-notify-restart-'));
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const hook = await providerSink();
    hook.respond({ status: 200, delayMs: 10_000 });
    const env = { DATA_DIR: dataDir, WEBHOOK_ALLOW_PRIVATE: 'on' };
    const first = await startGateway({ NOTIFY_RETRY_BASE_MS: '100', ...env });
    const o = await owner(first);
    await first.app.outbox.enqueue([message(o, { channel: 'WEBHOOK', recipient: `${hook.url}/in` })]);
    await hook.waitFor(1);
    expect((await deliveries(first, o))[0]!.status).toBe('sending');
    await first.stop();
    hook.respond({ status: 200 });
    const second = await gateway(env);
    await hook.waitFor(2);
    expect(await until(async () => (await deliveries(second, o))[0]?.status === 'sent')).toBe(true);
    const id = (await deliveries(second, o))[0]!.id;
    expect(hook.requests.map((r) => r.headers['x-sentra-delivery'])).toEqual([String(id), String(id)]);
  });

  it('sends each message once when two gateways share the database (BUS=nats)', async () => {
    const nats = await startNatsServer();
    cleanup.push(() => nats.stop());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sentra-notify-scale-'));
    cleanup.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const hook = await providerSink();
    hook.respond({ status: 200, delayMs: 5 });
    const env = {
      BUS: 'nats',
      NATS_URL: nats.url,
      DATA_DIR: dataDir,
      WEBHOOK_ALLOW_PRIVATE: 'on',
      NOTIFY_RATE_PER_MINUTE: '1000',
    };
    const one = await gateway(env);
    const two = await gateway(env);
    const o = await owner(one);
    const n = 60;
    // half queued through each gateway, so both workers are woken and race for the rows
    await one.app.outbox.enqueue(
      Array.from({ length: n / 2 }, (_, i) =>
        message(o, { channel: 'WEBHOOK', recipient: `${hook.url}/in`, body: `a${i}` }),
      ),
    );
    await two.app.outbox.enqueue(
      Array.from({ length: n / 2 }, (_, i) =>
        message(o, { channel: 'WEBHOOK', recipient: `${hook.url}/in`, body: `b${i}` }),
      ),
    );
    await hook.waitFor(n, 10_000);
    // both workers are done with all they would send: a copy sent twice (both claiming it) would be there
    expect(await until(async () => (await idle(one)) && (await idle(two)))).toBe(true);
    const ids = hook.requests.map((r) => r.headers['x-sentra-delivery']);
    expect(ids).toHaveLength(n);
    expect(new Set(ids).size).toBe(n);
    expect((await one.app.notifications.metrics()).sent + (await two.app.notifications.metrics()).sent).toBe(n);
    expect(await until(async () => (await deliveries(one, o)).filter((d) => d.status === 'sent').length === n)).toBe(
      true,
    );
  });
});
