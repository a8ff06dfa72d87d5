// Builders for the principals most integration tests need: a registered, signed-in tenant and its application.
import net from 'node:net';
import {
  appsContract,
  authContract,
  dashboardsContract,
  rolesContract,
  usersContract,
  type SysNav,
} from '@sentra/contracts';
import { call, type Auth } from './harness.js';

let seq = 0;
export const unique = (prefix: string) => `${prefix}${process.pid % 1000}${++seq}`;

export async function tenantSession(base: string, name = unique('tnt')) {
  const pass = 'rahasia123';
  const reg = await call(base, authContract.register, {
    username: name,
    first: 'Budi',
    last: 'Santoso',
    email: `${name}@contoh.id`,
    pass,
    passv: pass,
    tenant_name: `PT ${name}`,
  });
  if (reg.body.response_result !== 0) throw new Error(`register failed: ${JSON.stringify(reg.body)}`);
  const login = await call(base, authContract.tenantLogin, { input: name, pass });
  return { username: name, pass, tenant: { id: login.body.id as number, token: login.body.token as string } };
}

export async function tenantWithApp(base: string) {
  const t = await tenantSession(base);
  const domain = unique('app');
  const add = await call(base, appsContract.add, { name: `Aplikasi ${domain}`, domain }, { tenant: t.tenant });
  if (add.body.response_result !== 0) throw new Error(`add app failed: ${JSON.stringify(add.body)}`);
  return { ...t, domain, appId: add.body.data.id as number };
}

/**
 * An application user of `owner`'s application whose role grants `sys_navs` and `permissions` (and dashboards
 * `navs`), created through the real role and user calls and signed in through the real application sign-in.
 */
export async function memberWithRole(
  base: string,
  owner: { tenant: { id: number; token: string }; domain: string },
  grants: {
    sys_navs?: readonly SysNav[];
    permissions?: Record<string, unknown>;
    navs?: number[];
    descendant?: boolean;
  } = {},
) {
  const auth = { tenant: owner.tenant, domain: owner.domain };
  const role = await call(
    base,
    rolesContract.add,
    {
      name: unique('role'),
      sys_navs: [...(grants.sys_navs ?? [])],
      permissions: grants.permissions ?? {},
      navs: grants.navs ?? [],
      descendant: grants.descendant ?? false,
    },
    auth,
  );
  if (role.body.response_result !== 0) throw new Error(`role add failed: ${JSON.stringify(role.body)}`);
  const username = unique('usr');
  const pass = 'sandi1234';
  const user = await call(
    base,
    usersContract.add,
    {
      username,
      first: 'Rina',
      email: `${username}@contoh.id`,
      pass,
      passv: pass,
      role_id: role.body.data.id,
      email_verification: false,
    },
    auth,
  );
  if (user.body.response_result !== 0) throw new Error(`user add failed: ${JSON.stringify(user.body)}`);
  const login = await call(base, authContract.appLogin, { input: username, pass }, { domain: owner.domain });
  if (login.body.response_result !== 0) throw new Error(`app login failed: ${JSON.stringify(login.body)}`);
  return {
    member: { id: login.body.id as number, token: login.body.token as string },
    domain: owner.domain,
    roleId: role.body.data.id as number,
    userId: user.body.data.id as number,
    username,
    pass,
  };
}

// ---- devices (device registry issue) ----

/** Adds a device of a family (its first device type unless `variant` is given) and answers the device. */
export async function addDevice(
  base: string,
  auth:
    | { tenant: { id: number; token: string }; domain: string }
    | { member: { id: number; token: string }; domain: string },
  family: import('@sentra/contracts').DeviceFamilyKey,
  fields: Record<string, unknown> = {},
  variant?: string,
) {
  const { deviceFamilyCalls } = await import('@sentra/contracts');
  const calls = deviceFamilyCalls[family];
  const def = calls.adds[variant ?? calls.family.variants[0]!.key]!;
  const r = await call(base, def, { serial_number: unique('SN-'), name: unique('Alat '), ...fields }, auth);
  if (r.body.response_result !== 0) throw new Error(`add ${family} failed: ${JSON.stringify(r.body)}`);
  return r.body.data as Record<string, any> & { id: number };
}

/** One MQTT.js connection attempt without reconnects: the client, or the refusal (CONNACK code or 'closed'). */
export async function mqttAttempt(port: number, opts: import('mqtt').IClientOptions) {
  const { default: mqtt } = await import('mqtt');
  return new Promise<
    { client: import('mqtt').MqttClient; code?: undefined } | { client?: undefined; code: number | string }
  >((resolve) => {
    const client = mqtt.connect(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 3000, ...opts });
    client.once('connect', () => resolve({ client }));
    client.once('error', (err) => {
      client.end(true);
      resolve({ code: (err as { code?: number }).code ?? err.message });
    });
    client.once('close', () => resolve({ code: 'closed' }));
  });
}

/** true when something accepts TCP connections on the loopback port */
export const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port });
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
  });

export { until } from '../src/platform/testing/until.js';

/** A LATEST card query of a device's `pm`/`meter`/`power` (what the MQTT test devices publish). */
export const latestPower = (deviceId: number) => ({
  query: 'LATEST',
  queryType: 'device',
  device_id: deviceId,
  sensor: 'pm',
  config: 'meter',
  param: 'power',
});

/** Adds a dashboard (conf_dashboard and any other field of the call) and answers its id; throws when refused. */
export async function addDashboard(
  base: string,
  auth: Auth,
  label: string,
  conf: unknown,
  more: Record<string, unknown> = {},
): Promise<number> {
  const r = await call(base, dashboardsContract.add, { label, conf_dashboard: conf, ...more }, auth);
  if (r.body.response_result !== 0) throw new Error(JSON.stringify(r.body));
  return r.body.id as number;
}
