// The one way a screen calls the API: the output, or the catalogue's message as a notice or a CallError; nothing shown
// after a 401 or 402 (the session reactions are leaving the page).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { T, contracts, deviceFamilyCalls } from '@sentra/contracts';
import { notices } from '../ui/snackbar/notices.js';

const answer = vi.hoisted(() => ({
  next: { code: 200, text: 'OK', headers: {}, body: {} as unknown } as {
    code: number;
    text: string;
    headers: Record<string, string>;
    body: unknown;
    failure?: string;
  },
}));
vi.mock('./client.js', () => ({ api: { call: async () => answer.next } }));
const { CallError, callAndNotify, callFailure, callOrThrow, notifyCallFailure } = await import('./call.js');

const shown = () => notices.snapshot().map((n) => `${n.level}: ${n.message}`);

beforeEach(() => {
  for (const n of notices.snapshot()) notices.dismiss(n.id);
});

describe('callAndNotify', () => {
  it('answers the output of a successful call and shows nothing', async () => {
    answer.next = { code: 200, text: 'OK', headers: {}, body: { response_result: 0, data: [{ id: 1 }] } };
    expect(await callAndNotify(contracts.users.list)).toEqual({
      ok: true,
      value: { response_result: 0, data: [{ id: 1 }] },
    });
    expect(shown()).toEqual([]);
  });

  it("shows a failure as the catalogue's message: the screen's fallback, or the network text", async () => {
    answer.next = { code: 400, text: 'Bad Request', headers: {}, body: { response_result: -99 } };
    expect(await callAndNotify(contracts.users.list, undefined, T.users.deleteFailed)).toEqual({
      ok: false,
      sessionEnded: false,
      status: 400,
    });
    answer.next = { code: 0, text: 'network', headers: {}, body: null, failure: 'network' };
    await callAndNotify(contracts.users.list);
    expect(shown()).toEqual([`error: ${T.users.deleteFailed}`, `error: ${T.common.noConnection}`]);
  });

  it.each([401, 402])('shows nothing after a %i (the session reactions answer it)', async (code) => {
    answer.next = { code, text: 'x', headers: {}, body: { response_result: -14 } };
    expect(await callAndNotify(contracts.users.list)).toEqual({ ok: false, sessionEnded: true, status: code });
    expect(shown()).toEqual([]);
  });

  it('shows only the failures the screen names (shown), and never after an ended session', async () => {
    const onlyNoAnswer = (r: { code: number }) => r.code === 0 || r.code === 401;
    answer.next = { code: 404, text: 'Not Found', headers: {}, body: { response_result: -11 } };
    expect(await callAndNotify(contracts.users.list, undefined, T.users.deleteFailed, { shown: onlyNoAnswer })).toEqual(
      { ok: false, sessionEnded: false, status: 404 },
    );
    answer.next = { code: 401, text: 'Unauthorized', headers: {}, body: { response_result: -14 } };
    await callAndNotify(contracts.users.list, undefined, T.users.deleteFailed, { shown: onlyNoAnswer });
    answer.next = { code: 0, text: 'timeout', headers: {}, body: null, failure: 'timeout' };
    await callAndNotify(contracts.users.list, undefined, T.users.deleteFailed, { shown: onlyNoAnswer });
    expect(shown()).toEqual([`error: ${T.common.timeout}`]);
  });
});

describe('callOrThrow', () => {
  it("throws a CallError with the message, the form's field errors, the status and the envelope code", async () => {
    answer.next = {
      code: 400,
      text: 'Bad Request',
      headers: {},
      body: { response_result: -10, errors: [{ path: 'name', message: 'Nama wajib diisi' }] },
    };
    const err = await callOrThrow(contracts.users.list, undefined, T.shell.loadFailed).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CallError);
    expect(err).toMatchObject({
      message: T.shell.loadFailed,
      fieldErrors: { name: 'Nama wajib diisi' },
      status: 400,
      code: -10,
    });
  });

  it('answers the output of a successful call', async () => {
    answer.next = { code: 200, text: 'OK', headers: {}, body: { response_result: 0, data: [] } };
    expect(await callOrThrow(contracts.users.list, undefined, T.shell.loadFailed)).toEqual({
      response_result: 0,
      data: [],
    });
  });

  it("keeps the answer's errors whole (paths inside a JSON document) for a screen that shows where it failed", async () => {
    const problem = { path: 'conf_dashboard.dashboard.k1.config.max', message: 'Harus angka' };
    answer.next = {
      code: 400,
      text: 'Bad Request',
      headers: {},
      body: { response_result: -10, errors: [problem, { path: 7 }] },
    };
    const err = await callOrThrow(contracts.dashboards.edit, { id: 1, conf_dashboard: {} }, 'x').catch((e) => e);
    expect(err).toMatchObject({ problems: [problem], fieldErrors: { conf_dashboard: 'Harus angka' } });
  });

  it("names a documented refusal by the contract's table, or by the screen's own text when it passes MessageRules", async () => {
    answer.next = {
      code: 400,
      text: 'Bad Request',
      headers: {},
      body: { response_result: -11, message: 'Data tidak ditemukan' },
    };
    const byContract = await callOrThrow(contracts.dashboards.remove, { id: 1 }, 'Hapus gagal').catch((e) => e);
    expect(byContract.message).toBe('Data tidak ditemukan');
    const byScreen = await callOrThrow(contracts.dashboards.remove, { id: 1 }, { fallback: 'Hapus gagal' }).catch(
      (e) => e,
    );
    expect(byScreen).toMatchObject({ message: 'Hapus gagal', status: 400, code: -11 });
  });
});

describe('notifyCallFailure', () => {
  it("shows a CallError's message, the screen's text for anything else, and nothing after a 401 or 402", () => {
    notifyCallFailure(new CallError(T.common.timeout, {}, 0), 'Gagal');
    notifyCallFailure(new Error('boom'), 'Gagal');
    notifyCallFailure(new CallError('Sesi berakhir', {}, 401), 'Gagal');
    notifyCallFailure(new CallError('Bayar', {}, 402), 'Gagal');
    expect(shown()).toEqual([`error: ${T.common.timeout}`, 'error: Gagal']);
  });
});

describe('callFailure: a refusal that belongs to a field (the device add and others)', () => {
  const refused = (code: number, message: string, status = 400) => ({
    code: status,
    text: 'x',
    headers: {},
    body: { response_result: code, message },
  });
  const tasmotaAdd = deviceFamilyCalls.tasmota.adds.tasmota;
  const mqttAdd = deviceFamilyCalls.mqtt.adds.mqtt;

  it('puts a taken serial number under serial_number, and a taken Tasmota topic under topic', () => {
    expect(callFailure(refused(-12, T.devices.serverSerialTaken), mqttAdd, T.devices.addFailed)).toMatchObject({
      message: T.devices.serverSerialTaken,
      fieldErrors: { serial_number: T.devices.serverSerialTaken },
      code: -12,
    });
    expect(callFailure(refused(-12, T.devices.serverTopicTaken), tasmotaAdd, T.devices.addFailed)).toMatchObject({
      message: T.devices.serverTopicTaken,
      fieldErrors: { topic: T.devices.serverTopicTaken },
    });
  });

  it('names no field for a message the call does not assign, a code it does not document, or a server failure', () => {
    // an MQTT device has no topic field: the message stays a notice
    const noTopic = callFailure(refused(-12, T.devices.serverTopicTaken), mqttAdd, T.devices.addFailed);
    expect(noTopic.message).toBe(T.devices.serverTopicTaken);
    expect(noTopic.fieldErrors).toEqual({});
    // -3 is not documented for the add: the screen's text, no field
    expect(callFailure(refused(-3, T.devices.serverSerialTaken), tasmotaAdd, T.devices.addFailed)).toMatchObject({
      message: T.devices.addFailed,
      fieldErrors: {},
    });
    expect(callFailure(refused(-99, T.devices.serverSerialTaken, 500), tasmotaAdd, T.devices.addFailed)).toMatchObject({
      message: T.common.serverDown,
      fieldErrors: {},
    });
  });

  it('names the field by what the server said, whatever text the screen picks for the notice', () => {
    const taken = refused(-12, T.roles.nameTaken);
    expect(callFailure(taken, contracts.roles.add, { fallback: T.roles.addFailed })).toMatchObject({
      message: T.roles.addFailed,
      fieldErrors: { name: T.roles.nameTaken },
    });
    expect(callFailure(refused(-3, T.users.usernameTaken), contracts.users.add, T.users.addFailed)).toMatchObject({
      message: T.users.usernameTaken,
      fieldErrors: { username: T.users.usernameTaken },
    });
    expect(
      callFailure(refused(-12, T.credentials.idTaken), contracts.credentials.create, { fallback: 'Gagal' }),
    ).toMatchObject({ message: 'Gagal', fieldErrors: { credentials_id: T.credentials.idTaken } });
    expect(callFailure(refused(-12, T.tags.serverKeyTaken), contracts.tags.add, T.tags.addFailed)).toMatchObject({
      message: T.tags.serverKeyTaken,
      fieldErrors: { prefix: T.tags.serverKeyTaken },
    });
  });
});
