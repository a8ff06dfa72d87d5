// Test kit of the device data, states and commands tests: a gateway with a short command wait, and devices of each
// family connected with real MQTT.js clients exactly as the device registry provisions them.
import type { MqttClient } from 'mqtt';
import { credentialsContract, deviceFamilyCalls, loraContract } from '@sentra/contracts';
import { call, onlineOf, startGateway, type Running } from './harness.js';
import { addDevice, mqttAttempt, tenantWithApp, unique, until } from './fixtures.js';

export type Owner = Awaited<ReturnType<typeof tenantWithApp>>;
export type AppAuth = { tenant: { id: number; token: string }; domain: string };

/** the command wait of these tests: long enough for a loopback reply, short enough for -32 */
export const COMMAND_WAIT_MS = 700;

export async function startDataGateway(
  env: Record<string, string> = {},
): Promise<{ gw: Running; owner: Owner; auth: AppAuth; clients: MqttClient[] }> {
  const gw = await startGateway(env, { commandTimeoutMs: COMMAND_WAIT_MS });
  const owner = await tenantWithApp(gw.url);
  return { gw, owner, auth: { tenant: owner.tenant, domain: owner.domain }, clients: [] };
}

async function connect(gw: Running, clients: MqttClient[], opts: Parameters<typeof mqttAttempt>[1]) {
  const a = await mqttAttempt(gw.mqttPort, { clientId: unique('c'), ...opts });
  if (!a.client) throw new Error(`refused: ${a.code}`);
  clients.push(a.client);
  return a.client;
}

/** waits until the registry shows the device online (the command path checks it) */
const online = (gw: Running, id: number) => until(async () => (await onlineOf(gw, id)) === 1);

export async function mqttDevice(
  gw: Running,
  auth: AppAuth,
  clients: MqttClient[],
  fields: Record<string, unknown> = {},
) {
  const device = await addDevice(gw.url, auth, 'mqtt', fields);
  const client = await connect(gw, clients, {
    username: device.store_mqtt_username,
    password: device.store_mqtt_password,
  });
  await online(gw, device.id);
  return { device, client };
}

export async function tasmotaDevice(gw: Running, auth: AppAuth, clients: MqttClient[]) {
  const device = await addDevice(gw.url, auth, 'tasmota');
  const client = await connect(gw, clients, {
    username: device.username,
    password: device.password,
    will: { topic: `tele/${device.topic}/LWT`, payload: Buffer.from('Offline'), qos: 1, retain: true },
  });
  await client.publishAsync(`tele/${device.topic}/LWT`, 'Online', { qos: 1, retain: true });
  await online(gw, device.id);
  return { device, client, topic: device.topic as string };
}

/** a ChirpStack-style network server signed in with a credentials pair, and one LoRa device behind it */
export async function loraDevice(
  gw: Running,
  auth: AppAuth,
  appId: number,
  clients: MqttClient[],
  devEui = '70b3d57ed00' + String(Date.now() % 100000).padStart(5, '0'),
  fields: Record<string, unknown> = {},
) {
  const pair = await call(
    gw.url,
    credentialsContract.create,
    { credentials_id: unique('ns'), scopes: { navs: [] }, details: {} },
    auth,
  );
  const server = await call(
    gw.url,
    loraContract.add,
    {
      mac: `AA:BB:CC:${[0, 0, 0]
        .map(() =>
          Math.floor(Math.random() * 256)
            .toString(16)
            .padStart(2, '0'),
        )
        .join(':')}`,
      name: 'ChirpStack',
      server: 'chirpstack:1700',
    },
    auth,
  );
  const device = await addDevice(gw.url, auth, 'lora', {
    dev_eui: devEui.toUpperCase(),
    otaa_key: 'A'.repeat(32),
    network_server_id: server.body.data.id,
    ...fields,
  });
  const ns = await connect(gw, clients, {
    username: pair.body.data.credentials_id,
    password: pair.body.data.credentials_secret,
  });
  return {
    device,
    ns,
    devEui: devEui.toLowerCase(),
    upTopic: `application/${appId}/device/${devEui.toLowerCase()}/event/up`,
  };
}

/** a ZLAN serial gateway: heard while unclaimed, added by its UID, then reconnected with its secret and registered rights */
export async function serialGateway(gw: Running, auth: AppAuth, clients: MqttClient[]) {
  const uid = unique('ZL').toUpperCase();
  const first = await connect(gw, clients, { username: uid, clientId: uid });
  const kicked = new Promise<void>((r) => first.once('close', () => r()));
  await first.publishAsync(`gw/${uid}/up`, '{}', { qos: 1 });
  await until(
    async () => (await call(gw.url, deviceFamilyCalls.zlan.check!, { dev_uid: uid }, auth)).body.response_result === 0,
  );
  const added = await call(
    gw.url,
    deviceFamilyCalls.zlan.adds.zlan!,
    { serial_number: unique('Z'), name: 'ZLAN Pabrik', dev_uid: uid },
    auth,
  );
  if (added.body.response_result !== 0) throw new Error(JSON.stringify(added.body));
  await kicked;
  first.end(true);
  // registered, it signs in with the secret shown once by the add (issue 23), never with its UID alone
  const secret: string = added.body.data.gateway_secret;
  const client = await connect(gw, clients, { username: uid, clientId: uid, password: secret });
  await online(gw, added.body.data.id);
  return { device: added.body.data as Record<string, any> & { id: number }, client, uid, secret };
}

/** until everything published so far is committed */
export async function settle(gw: Running, check?: () => boolean | Promise<boolean>) {
  // a condition that never holds is a failure here, not ten seconds spent before the assertions that follow
  if (check && !(await until(async () => (await gw.app.telemetry.flush(), await check()))))
    throw new Error('settle: the awaited condition never held');
  await gw.app.telemetry.flush();
}
