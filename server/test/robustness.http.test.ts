// Hostile input over HTTP (docs/conventions.md "API conventions": "Bad input never reaches the database and never
// yields a 500"): every call of the route table, as a signed-in tenant inside a seeded application (the public ones
// without auth), with the battery of robustness.http.kit (path parameters, fields, whole and raw bodies, query keys,
// auth headers). Every answer is below 500, carries the envelope, and its status goes with its code.
import http from 'node:http';
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Header,
  Result,
  SYS_NAVS,
  T,
  allCalls,
  authContract,
  cardsContract,
  credentialsContract,
  dashboardsContract,
  deviceFamilyCalls,
  devicesContract,
  loraContract,
  refreshTokenContract,
  rulesContract,
  tagsContract,
  tasksContract,
  type CallDef,
  type DeviceFamilyKey,
} from '@sentra/contracts';
import { call, headersOf, startGateway, type Running } from './harness.js';
import { addDashboard, addDevice, memberWithRole, tenantWithApp } from './fixtures.js';
import { mqttDevice, settle } from './device-data.kit.js';
import { until } from '../src/platform/testing/until.js';
import { attemptsOf, deepObject, shapeOf, type Attempt } from './robustness.http.kit.js';

let gw: Running;
let owner: Awaited<ReturnType<typeof tenantWithApp>>;
let stranger: Awaited<ReturnType<typeof tenantWithApp>>;
let member: Awaited<ReturnType<typeof memberWithRole>>;
/** the seeded records the valid inputs name */
const seed = {} as {
  device: number;
  dummy: number;
  families: Partial<Record<DeviceFamilyKey, number>>;
  lora: number;
  credentials: number;
  dashboard: number;
  spareDashboard: number;
  throwawayDashboard: number;
  deviceToken: string;
  refreshToken: string;
  emma: { emma_plugin_key: string; emma_application_plugin_id: string };
  rule: number;
  task: number;
};
const clients: MqttClient[] = [];
// node:http over kept-alive sockets: some 18,000 requests, and fetch costs the shared event loop more per request
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

beforeAll(async () => {
  // hostile passwords are wrong passwords: the sign-in throttle (tested in session-security.test.ts) would answer 429
  // to this suite's own re-sign-ins
  gw = await startGateway({ LOGIN_THROTTLE_ATTEMPTS: '1000000' }, { commandTimeoutMs: 300 });
  owner = await tenantWithApp(gw.url);
  stranger = await tenantWithApp(gw.url);
  const auth = { tenant: owner.tenant, domain: owner.domain };
  // a device that reported data and a state, and answers every command: a command's value travels all the way
  const { device, client } = await mqttDevice(gw, auth, clients);
  await client.subscribeAsync(`d/${device.id}/cmd`, { qos: 1 });
  client.on('message', (topic, payload) => {
    if (topic !== `d/${device.id}/cmd`) return;
    const cmd = JSON.parse(payload.toString());
    client.publish(`d/${device.id}/cmd/res`, JSON.stringify({ id: cmd.id, ok: true }), { qos: 1 });
  });
  await client.publishAsync(`d/${device.id}/data`, JSON.stringify({ env: { data: { t: 21.5, h: { a: 1, b: 2 } } } }), {
    qos: 1,
  });
  await client.publishAsync(`d/${device.id}/state`, JSON.stringify({ mode: 'auto' }), { qos: 1 });
  await settle(
    gw,
    async () =>
      (await gw.app.telemetry.query.findSeries(owner.appId, device.id, {
        sensor: 'env',
        configtype: 'data',
        param: 't',
      })) !== null,
  );
  seed.device = device.id;

  const lora = await call(
    gw.url,
    loraContract.add,
    { mac: 'AA:BB:CC:DD:EE:01', name: 'Gerbang', server: 'lora.contoh.id:1700' },
    auth,
  );
  seed.lora = lora.body.data.id;
  const plugins = await call(gw.url, devicesContract.emmaPlugins, {}, auth);
  const plugin = plugins.body.plugins[0];
  seed.emma = {
    emma_plugin_key: plugin.emma_plugin_key,
    emma_application_plugin_id: plugin.emma_application_plugin_id,
  };
  seed.families = {
    mqtt: device.id,
    dummy: (await addDevice(gw.url, auth, 'dummy', { sensors: { env: { data: { t: 0 } } } })).id,
    tasmota: (await addDevice(gw.url, auth, 'tasmota')).id,
    emma: (await addDevice(gw.url, auth, 'emma', seed.emma)).id,
    imou: (await addDevice(gw.url, auth, 'imou', { imou_device_id: 'CAM1', imou_application_id: 'lc01' })).id,
    lora: (
      await addDevice(gw.url, auth, 'lora', {
        dev_eui: '70B3D57ED0000A01',
        otaa_key: '0'.repeat(32),
        network_server_id: seed.lora,
      })
    ).id,
  };
  seed.dummy = seed.families.dummy!;

  await call(gw.url, tagsContract.add, { name: 'Lokasi', prefix: 'lokasi', category: 1 }, auth);
  await call(gw.url, tagsContract.addDefinition, { name: 'Gudang', prefix: 'lokasi' }, auth);
  seed.credentials = (
    await call(gw.url, credentialsContract.create, { credentials_id: 'robust_ns', scopes: {}, details: {} }, auth)
  ).body.data.id;
  seed.deviceToken = (await call(gw.url, devicesContract.tokenGenerate, {}, auth)).body.credentials_token;
  seed.refreshToken = (await call(gw.url, refreshTokenContract.get, {}, auth)).body.refresh_token;

  const series = { device_id: device.id, sensor: 'env', config: 'data', param: 't' };
  const cardOf = (key: string, cat: string, model: Record<string, unknown>) => ({
    key,
    cat,
    x: 0,
    y: 0,
    w: 2,
    h: 2,
    model,
  });
  seed.dashboard = await addDashboard(gw.url, auth, 'Panel Uji', {
    version: '2',
    config: { refresh: 0 },
    var: { func_total: { _varType: 'func', query: 'SUM', queryType: 'device', ...series } },
    dashboard: {
      nilai: cardOf('nilai', 'SINGLE_VALUE_CARD', {
        value: { query: 'AVG', queryType: 'device', ...series },
        filter: { default: { name: 'Hari ini', range: 'TODAY' } },
      }),
      tren: cardOf('tren', 'LINE_CHART_CARD', {
        value: { query: 'AVG', queryType: 'graph', ...series, param_label: 'suhu' },
        filter: { default: { name: 'Live', ndata: 5 } },
      }),
      pompa: cardOf('pompa', 'INPUT_TOGGLE_CARD', {
        config: { device_id: device.id, sensor: 'relay', config: 'out', param: 'pump' },
      }),
      semua: cardOf('semua', 'BUTTON_TAGS_CARD', {
        tags: [],
        config: { sensor: 'relay', config: 'out', param: 'pump' },
      }),
      ws: cardOf('ws', 'WEBSERVICE', { config: { url: 'http://127.0.0.1:9/data' } }),
    },
  });
  seed.spareDashboard = await addDashboard(gw.url, auth, 'Panel Cadangan', {
    version: '2',
    config: { refresh: 0 },
    var: {},
    dashboard: { c1: cardOf('c1', 'SINGLE_VALUE_CARD', {}) },
  });
  seed.throwawayDashboard = await addDashboard(gw.url, auth, 'Panel Buangan', {
    version: '2',
    config: { refresh: 0 },
    var: {},
    dashboard: {},
  });
  member = await memberWithRole(gw.url, owner, { sys_navs: SYS_NAVS, navs: [seed.dashboard] });
  // a rule and the task its firing made (rules-engine)
  seed.rule = (
    await call(gw.url, rulesContract.add, { name: 'Aturan Uji', category: 111, condition: {}, action: {} }, auth)
  ).body.data.id;
  gw.app.rules.engine.event({ appId: owner.appId, deviceId: seed.device, category: 111, ts: Date.now() });
  // its task is written when the engine's turn is stored (a round trip on PostgreSQL)
  let tasks: { id: number }[] = [];
  await until(async () => (tasks = (await call(gw.url, tasksContract.list, {}, auth)).body.tasks).length > 0);
  seed.task = tasks[0]!.id;
}, 60_000);

afterAll(async () => {
  agent.destroy();
  clients.forEach((c) => c.end(true));
  await gw?.stop();
});

/** The family calls of a device family, when `def` is one of them. */
function familyOf(def: CallDef): DeviceFamilyKey | undefined {
  return Object.values(deviceFamilyCalls).find((c) =>
    [c.remove, c.sensors, c.get, c.check, ...Object.values(c.adds)].includes(def),
  )?.family.key;
}

/** The record `id` names on this call's path. */
function idFor(def: CallDef): number {
  const p = def.path;
  if (p.includes('/account/manage/') || p.includes('/setting/edit/password')) return member.userId;
  if (p.includes('/account/role/')) return member.roleId;
  if (p.includes('/credentials/')) return seed.credentials;
  if (p.includes('/rule/')) return seed.rule;
  if (p.includes('/task/')) return seed.task;
  if (p.includes('/lora/server/')) return seed.lora;
  if (p.endsWith('/nav/remove')) return seed.throwawayDashboard;
  if (p.endsWith('/nav/remove/dashboard')) return seed.spareDashboard;
  if (p.includes('/nav/') || p.startsWith('/fetch/web/d/')) return seed.dashboard;
  if (p.startsWith('/fetch/web/')) return seed.device;
  const family = familyOf(def);
  return (family && seed.families[family]) || seed.dummy;
}

/**
 * A valid input for the call: its required fields (optional ones are left to the battery). `__SEQ__` and `__HEX__`
 * become a number of each request's own (`fresh`).
 */
function validInput(def: CallDef): Record<string, unknown> {
  const p = def.path;
  const values: Record<string, unknown> = {
    id: idFor(def),
    username: 'rbst__SEQ__',
    first: 'Budi',
    last: 'Santoso',
    email: 'rbst__SEQ__@contoh.id',
    pass: 'sandi1234',
    passv: 'sandi1234',
    passn: 'sandi5678',
    tenant_name: 'PT Robust',
    name: 'Uji___SEQ__',
    domain: p.includes('/get/domain/') ? owner.domain : 'robust___SEQ__',
    description: 'uji',
    credentials_id: 'robust___SEQ__',
    scopes: {},
    details: {},
    category: p.includes('/credentials/') ? 19 : 1,
    role_id: member.roleId,
    permissions: {},
    navs: [],
    sys_navs: [],
    descendant: false,
    label: 'Papan Uji',
    desc: 'uji',
    parent: null,
    conf_dashboard: { version: '2', config: { refresh: 0 }, var: {}, dashboard: {} },
    dashboard_id: 'c1',
    search: 'a',
    page: 0,
    size: 10,
    status: 'on',
    token: seed.deviceToken,
    device_id: p.endsWith('/add/dum') ? seed.dummy : seed.device,
    key: p.includes('/state/') ? 'mode' : 'env.data.t',
    serial_number: 'SN-__SEQ__',
    latitude: 1,
    longitude: 1,
    tags: {},
    sensors: '{"env":{"data":{"t":0}}}',
    credentials_token: seed.deviceToken,
    dev_eui: '70B3D57E__HEX__',
    otaa_key: 'A'.repeat(32),
    network_server_id: seed.lora,
    dev_uid: 'UIDROBUST',
    ...seed.emma,
    imou_device_id: 'CAM2',
    imou_application_id: 'lc01',
    prefix: 'lokasi',
    name_lc: 'utara',
    mac: p.endsWith('/edit') ? 'AA:BB:CC:DD:EE:01' : 'AA:BB:CC:00:00:99',
    server: 'lora.contoh.id:1700',
    sensor: 'env',
    configtype: 'data',
    param: 't',
    start: 0,
    end: Date.now() + 3_600_000,
    ndata: 5,
    n: 5,
    policies: {},
    value: 1,
    dashboardId: seed.dashboard,
    componentKey: p.startsWith('/fetch/web/p/') ? 'pompa' : p.startsWith('/fetch/web/ws/') ? 'ws' : 'tren',
    refresh_token: seed.refreshToken,
    // the editor's preview: an unsaved card
    component: {
      key: 'baru',
      cat: 'SINGLE_VALUE_CARD',
      x: 0,
      y: 0,
      w: 1,
      h: 1,
      model: {
        value: {
          query: 'LATEST',
          queryType: 'device',
          device_id: seed.device,
          sensor: 'env',
          config: 'data',
          param: 't',
        },
      },
    },
    // rules and tasks: a rule category, an action entry, a task status
    ...(p.includes('/rule/') ? { category: 111, action: {}, condition: {} } : {}),
    ...(p.includes('/task/') ? { status: 2 } : {}),
    active: true,
  };
  if (p.endsWith('/auth/login'))
    Object.assign(
      values,
      p.includes('/tenant/')
        ? { input: owner.username, pass: owner.pass }
        : { input: member.username, pass: member.pass },
    );
  const shape = shapeOf(def.input);
  const input: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(shape)) {
    if (field.safeParse(undefined).success) continue;
    if (!(key in values)) throw new Error(`no valid value for ${key} of ${def.path}`);
    input[key] = values[key];
  }
  // a refinement may ask for one of several optional fields (edit: a name or the navs): give what its issues name
  const missing = def.input
    .safeParse(input)
    .error?.issues.map((i) => String(i.path[0]))
    .filter((k) => k in shape && k in values && !(k in input));
  for (const key of missing ?? []) input[key] = values[key];
  return input;
}

const ends = (def: CallDef) => def.path.endsWith('/logout');
const destroys = (def: CallDef) => /\/(remove|delete)\b/.test(def.path);

/** Headers of the caller: none for public calls (x-app-domain for an application's), a fresh session for logouts. */
async function callerHeaders(def: CallDef): Promise<Record<string, string>> {
  if (def.audience === 'public') return def.path.includes('/application/') ? { [Header.appDomain]: owner.domain } : {};
  if (ends(def)) {
    const login = await call(gw.url, authContract.tenantLogin, { input: owner.username, pass: owner.pass });
    return headersOf({ tenant: { id: login.body.id, token: login.body.token }, domain: owner.domain });
  }
  return headersOf({ tenant: owner.tenant, domain: owner.domain });
}

/**
 * The statuses each shared code goes with (docs/conventions.md "API conventions"). A request the body parser refuses
 * before any call sees it keeps the parser's status beside -10: 413 for a body over the limit, 415 for a charset or
 * content-encoding it does not take.
 */
const STATUS_OF: Record<number, number[]> = {
  [Result.INVALID]: [400, 413, 415],
  [Result.NOT_FOUND]: [404],
  [Result.CONFLICT]: [400],
  [Result.FORBIDDEN]: [403],
  [Result.UNAUTHORIZED]: [401],
};

/** What is wrong with an answer, or null. */
function verdict(def: CallDef, status: number, type: string, text: string): string | null {
  if (status >= 500) return `status ${status}`;
  if (def.stream && status === 200) return type.startsWith(def.stream) ? null : `a ${type} answer to a CSV call`;
  if (!type.startsWith('application/json')) return `status ${status} without the JSON envelope (${type})`;
  let body: { response_result?: unknown };
  try {
    body = JSON.parse(text);
  } catch {
    return `status ${status} with a body that is not JSON`;
  }
  const code = body.response_result;
  if (typeof code !== 'number') return `status ${status} without a numeric response_result`;
  if (status === 200 && code !== 0) return `status 200 with response_result ${code}`;
  if (status !== 200 && code >= 0) return `status ${status} with response_result ${code}`;
  if (STATUS_OF[code] && !STATUS_OF[code].includes(status)) return `response_result ${code} with status ${status}`;
  return null;
}

let seq = 0;
/** Each request its own serial number, username, domain ...: a write that passes validation is not stopped by -12. */
const fresh = (text: string | undefined) => {
  if (!text?.includes('__')) return text;
  const n = ++seq;
  return text.replaceAll('__SEQ__', String(n)).replaceAll('__HEX__', n.toString(16).toUpperCase().padStart(8, '0'));
};

const freshInput = (def: CallDef) => JSON.parse(fresh(JSON.stringify(validInput(def)))!) as Record<string, unknown>;

async function send(def: CallDef, attempt: Attempt): Promise<string | null> {
  const a = { ...attempt, path: fresh(attempt.path)!, query: fresh(attempt.query), body: fresh(attempt.body) };
  const headers: Record<string, string> = {
    ...(await callerHeaders(def)),
    ...(a.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...a.headers,
  };
  if (headers['content-type'] === '') delete headers['content-type'];
  const url = `${gw.url}${a.path}${a.query ? `?${a.query}` : ''}`;
  try {
    const res = await request(url, def.method, headers, a.body);
    const wrong = verdict(def, res.status, res.type, res.text);
    return wrong && `${wrong}: ${res.text.slice(0, 160)}`;
  } catch (err) {
    return `no answer (${(err as Error).message})`;
  }
}

function request(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type'] ?? ''),
          text: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 15 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `work` over `items`, `n` at a time. */
async function inTurns<T>(items: T[], n: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const calls = allCalls();
// records the battery removes are removed last, so every other call still finds them; devices last of all
const ordered = [
  ...calls.filter((d) => !destroys(d)),
  ...calls.filter((d) => destroys(d) && !familyOf(d)),
  ...calls.filter((d) => destroys(d) && familyOf(d)),
];
const covered = new Set<CallDef>();
// the gateway runs in this process: a `__proto__` key that reached a plain object's prototype shows here
const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort();

// Per-domain tests prove 404 for another tenant's ids (devices for the MQTT family, dashboards, data, users, roles,
// credentials, LoRa, tags, the card GET); these are the calls they leave out.
describe("another tenant's ids", () => {
  const unproven = () => [
    ...Object.values(deviceFamilyCalls)
      .filter((c) => seed.families[c.family.key])
      .flatMap((c) => (c.family.key === 'mqtt' ? [] : [c.get, c.sensors, c.remove])),
    devicesContract.dummyDashboard,
    cardsContract.command,
    cardsContract.csv,
  ];
  it('answer 404 -11 on the calls no domain test covers, and leave the record alone', async () => {
    const as = { tenant: stranger.tenant, domain: stranger.domain };
    for (const def of unproven()) {
      const r = await call(gw.url, def, freshInput(def), as);
      expect({ call: `${def.method} ${def.path}`, status: r.status, code: r.body.response_result }).toEqual({
        call: `${def.method} ${def.path}`,
        status: 404,
        code: Result.NOT_FOUND,
      });
    }
    for (const [family, id] of Object.entries(seed.families)) {
      expect(
        (await call(gw.url, devicesContract.get, { id }, { tenant: owner.tenant, domain: owner.domain })).status,
        family,
      ).toBe(200);
    }
  });
});

describe('JSON nested deeper than the gateway can write back', () => {
  it('refuses a card holding a value 5,000 deep in a dashboard, sent as an object or as JSON text (-10)', async () => {
    // inside a card's own fields, which the dashboard keeps as they are: only a nesting bound stops it
    const conf = `{"version":"2","config":{"refresh":0},"var":{},"dashboard":{"c1":{"key":"c1","cat":"SINGLE_VALUE_CARD","x":0,"y":0,"w":1,"h":1,"view":{"deep":${deepObject(5000)}}}}}`;
    for (const [form, value] of [
      ['object', conf],
      ['text', JSON.stringify(conf)],
    ]) {
      const res = await fetch(gw.url + dashboardsContract.add.path, {
        method: 'POST',
        headers: { ...headersOf({ tenant: owner.tenant, domain: owner.domain }), 'content-type': 'application/json' },
        body: `{"label":"Dalam","conf_dashboard":${value}}`,
      });
      expect({
        form,
        status: res.status,
        code: ((await res.json()) as { response_result: number }).response_result,
      }).toEqual({ form, status: 400, code: Result.INVALID });
    }
  });
});

describe('a body over the 2 MB limit', () => {
  it('answers 413 with -10 "Body terlalu besar" before any call reads it', async () => {
    const res = await fetch(gw.url + dashboardsContract.add.path, {
      method: 'POST',
      headers: { ...headersOf({ tenant: owner.tenant, domain: owner.domain }), 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'x'.repeat(2.5 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ response_result: Result.INVALID, message: T.common.bodyTooLarge });
  });
});

describe('every call under hostile input', () => {
  it('starts every call from an input its schema accepts', () => {
    const refused = calls.filter((def) => !def.input.safeParse(freshInput(def)).success).map((def) => def.path);
    expect(refused).toEqual([]);
  });

  it.each(ordered.map((def) => [`${def.method} ${def.path}`, def] as const))(
    '%s answers the envelope, never a 5xx',
    async (_name, def) => {
      // the token/gen call before this one replaced the refresh token
      if (def === refreshTokenContract.exchange)
        seed.refreshToken = (
          await call(gw.url, refreshTokenContract.get, {}, { tenant: owner.tenant, domain: owner.domain })
        ).body.refresh_token;
      const list = attemptsOf(def, validInput(def));
      covered.add(def);
      const failures: string[] = [];
      await inTurns(list, 6, async (a) => {
        const wrong = await send(def, a);
        if (wrong) failures.push(`${def.method} ${def.path} ← ${a.what}: ${wrong}`);
      });
      expect(failures, failures.join('\n')).toEqual([]);
    },
  );

  it('answers every read again afterwards, over whatever the battery managed to store', async () => {
    const failures: string[] = [];
    for (const def of calls.filter((d) => d.method === 'GET')) {
      const wrong = await send(def, attemptsOf(def, validInput(def))[0]!);
      if (wrong) failures.push(`${def.method} ${def.path} ← the valid input, after the battery: ${wrong}`);
    }
    expect(failures, failures.join('\n')).toEqual([]);
  });

  it('covered every call of the route table', () => {
    expect(covered.size).toBe(calls.length);
  });

  it('left Object.prototype as it was', () => {
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeNames);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
