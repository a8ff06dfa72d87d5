// Registers the planned devices through the REST API exactly as a user does in the wizard: the family's add call,
// with the token or UID activation first where the family needs it; devices a previous run registered are reused.
import {
  appsContract,
  credentialsContract,
  deviceFamilyCalls,
  devicesContract,
  loraContract,
  type DeviceSummary,
  type EmmaPluginApplication,
} from '@sentra/contracts';
import { hexOf } from '../rng.js';
import { PROFILES, Simulation } from '../profiles/index.js';
import { sensorsOf } from './sensors.js';
import {
  GatewayDevice,
  GenericDevice,
  LoraNodeDevice,
  NetworkServer,
  TasmotaDevice,
  type Connection,
  type DeviceEnv,
  type Emitter,
} from './devices.js';
import type { DevicePlan } from './plan.js';
import type { KeptTokens } from './kept-tokens.js';
import { retry, type RestClient } from './rest.js';

export interface AppInfo {
  id: number;
  name: string;
  domain: string;
}

/** A device as the run knows it once registered. */
export interface RegisteredDevice {
  plan: DevicePlan;
  /** the gateway's device id */
  id: number;
  /** its own MQTT connection (none for LoRa nodes, Dummy, Emma, Imou) */
  connection?: Connection;
  emitter?: Emitter;
  /** Tasmota topic, MQTT username: what a person would copy from the info screen */
  topic?: string;
}

export async function ensureApp(rest: RestClient, domain: string, name: string): Promise<AppInfo> {
  const list = await rest.call(appsContract.list, {});
  const found = list.data.find((a) => a.domain === domain);
  const app =
    found ??
    (await rest.call(appsContract.add, { name, domain, description: 'Armada perangkat simulasi Sentra' })).data;
  rest.domain = app.domain;
  return { id: app.id, name: app.name, domain: app.domain };
}

/** Devices of earlier runs with this fleet's serial prefix, by serial. */
export async function existingDevices(rest: RestClient, prefix: string): Promise<Map<string, DeviceSummary>> {
  const found = new Map<string, DeviceSummary>();
  for (let page = 0; page < 1000; page++) {
    const r = await rest.call(devicesContract.filter, { search: prefix, page, size: 100 });
    for (const d of r.devices) if (d.serial_number.startsWith(prefix)) found.set(d.serial_number, d);
    if ((page + 1) * 100 >= r.total || r.devices.length === 0) break;
  }
  return found;
}

const NS_CREDENTIALS_ID = 'sentra-sim-ns';

/** The simulated network server: the application's credentials pair it signs in with, and its LoRa server entry. */
export async function ensureNetworkServer(
  rest: RestClient,
  app: AppInfo,
  env: DeviceEnv,
): Promise<{ ns: NetworkServer; serverId: number }> {
  const creds = await rest.call(credentialsContract.list, {});
  const pair =
    creds.data.find((c) => c.credentials_id === NS_CREDENTIALS_ID) ??
    (
      await rest.call(credentialsContract.create, {
        credentials_id: NS_CREDENTIALS_ID,
        scopes: {},
        details: { purpose: 'LoRa network server (simulator)' },
      })
    ).data;
  const mac = hexOf(`${app.domain}/network-server`, 16).match(/../g)!.join(':');
  const servers = await rest.call(loraContract.list, { search: 'ChirpStack', page: 0, size: 100 });
  const server =
    servers.data.find((s) => s.mac === mac) ??
    (await rest.call(loraContract.add, { mac, name: 'ChirpStack Simulator', server: 'chirpstack.sim.local:8080' }))
      .data;
  const ns = new NetworkServer(app.id, env);
  await ns.open({
    clientId: `chirpstack-${app.id}-${mac.replace(/:/g, '').slice(-6)}`,
    username: pair.credentials_id,
    password: pair.credentials_secret,
  });
  return { ns, serverId: server.id };
}

export interface RegistrationContext {
  rest: RestClient;
  app: AppInfo;
  env: DeviceEnv;
  existing: Map<string, DeviceSummary>;
  network?: { ns: NetworkServer; serverId: number };
  emmaPlugins?: EmmaPluginApplication[];
  /** the tokens the Sentra end devices kept from an earlier run (none kept: they are added anew each run) */
  tokens?: KeptTokens;
}

const family = (plan: DevicePlan) => deviceFamilyCalls[plan.family];

/** a Sentra end device's client id: the same in every run, so a run's connection takes over the one before */
const sentraClientId = (plan: DevicePlan) => `sentra-${plan.serial}`;

// CONNACK return codes of MQTT 3.1.1 that say the credentials are not taken
const BAD_USERNAME_OR_PASSWORD = 4;
const NOT_AUTHORIZED = 5;

/** a Sentra end device of an earlier run back with its kept token; undefined when the broker no longer takes it */
async function signInAgain(
  ctx: RegistrationContext,
  plan: DevicePlan,
  id: number,
  token: string,
): Promise<RegisteredDevice | undefined> {
  const dev = new GenericDevice(plan, ctx.env);
  try {
    // refused once, it gives up (its first CONNACK puts its usual reconnect period back)
    await dev.open({ clientId: sentraClientId(plan), username: token, reconnectPeriod: 0 }, { tryOnly: true });
  } catch (err) {
    await dev.close();
    // refused (bad credentials, not authorised: the token is gone): forget it; anything else (a time-out, the
    // broker's authority unavailable) is this run's failure, not a reason to drop the device and its history
    const code = (err as { code?: unknown }).code;
    if (code !== BAD_USERNAME_OR_PASSWORD && code !== NOT_AUTHORIZED) throw err;
    await ctx.tokens?.set(plan.serial, undefined);
    return undefined;
  }
  dev.attach(id);
  return { plan, id, connection: dev, emitter: dev };
}

export async function registerDevice(ctx: RegistrationContext, plan: DevicePlan): Promise<RegisteredDevice> {
  const { rest, env } = ctx;
  const calls = family(plan);
  let existing = ctx.existing.get(plan.serial);
  if (existing && plan.family === 'sentraEnd') {
    // a token device of an earlier run signs in again with the token it kept
    const kept = ctx.tokens?.get(plan.serial);
    const again = kept === undefined ? undefined : await signInAgain(ctx, plan, existing.id, kept);
    if (again) return again;
  }
  if (existing && (existing.category !== calls.family.category || plan.family === 'sentraEnd')) {
    // another family under this serial (the run's options changed), or a token device whose token it did not keep
    const removeCall = Object.values(deviceFamilyCalls).find((c) => c.family.category === existing!.category)!.remove;
    await rest.call(removeCall, { id: existing.id });
    existing = undefined;
  }
  // the same readings the device will publish first (gateway nodes: index * 32 + node, as GatewayDevice numbers them)
  const readings = Array.from({ length: plan.wire === 'gateway' ? (plan.nodes ?? 1) : 1 }, (_, i) =>
    new Simulation(
      PROFILES[plan.profile],
      env.seed,
      plan.wire === 'gateway' ? plan.index * 32 + i : plan.index,
      env.startMs,
    ).reading(),
  );
  const draft = {
    serial_number: plan.serial,
    name: plan.name,
    description: `Simulator: profil ${plan.profile}`,
    latitude: plan.latitude,
    longitude: plan.longitude,
    sensors: sensorsOf(plan.wire, readings),
  };
  const add = async (extra: Record<string, unknown> = {}) =>
    ((await rest.call(calls.adds[plan.variant]!, { ...draft, ...extra })) as { data: Record<string, any> }).data;
  const info = async (id: number) => ((await rest.call(calls.get, { id })) as { data: Record<string, any> }).data;
  // a device of an earlier run: its password or secret was shown once then, so a new one is made, as a person would
  const newSecret = async (id: number) => (await rest.call(devicesContract.brokerSecretRegenerate, { id })).data.secret;

  switch (plan.family) {
    case 'mqtt': {
      const d = existing ? await info(existing.id) : await add();
      const password: string = existing ? await newSecret(existing.id) : d.store_mqtt_password;
      const dev = new GenericDevice(plan, env);
      await dev.open({ clientId: `mqtt-${plan.serial}`, username: d.store_mqtt_username, password });
      dev.attach(d.id);
      return { plan, id: d.id, connection: dev, emitter: dev, topic: d.store_mqtt_username };
    }
    case 'tasmota': {
      const d = existing ? await info(existing.id) : await add();
      const password: string = existing ? await newSecret(existing.id) : d.password;
      const dev = new TasmotaDevice(plan, env);
      await dev.open(dev.options(d.topic, d.username, password));
      return { plan, id: d.id, connection: dev, emitter: dev, topic: d.topic };
    }
    case 'sentraEnd': {
      const { credentials_token: token } = await rest.call(devicesContract.tokenGenerate, {});
      const dev = new GenericDevice(plan, env);
      // the device signs in with its token first; the activation screen's check then succeeds
      await dev.open({ clientId: sentraClientId(plan), username: token });
      try {
        await retry(() => rest.call(devicesContract.tokenCheck, { token }), 40, 250);
        const d = await add({ credentials_token: token });
        dev.attach(d.id);
        await ctx.tokens?.set(plan.serial, token);
        return { plan, id: d.id, connection: dev, emitter: dev };
      } catch (err) {
        await dev.close();
        throw err;
      }
    }
    case 'zlan':
    case 'usrIot':
    case 'bivocom':
    case 'friendcom':
    case 'sentraGateway': {
      const dev = new GatewayDevice(plan, env);
      if (existing) {
        dev.useSecret(await newSecret(existing.id));
        dev.registered = true;
      }
      await dev.open(dev.options());
      try {
        let id = existing?.id;
        if (id === undefined) {
          // unregistered, it may only publish on its own gw/<uid>/up: that is how the activation screen's check hears it
          dev.announce();
          await retry(() => rest.call(calls.check!, { dev_uid: plan.uid }), 40, 250);
          // the broker drops the unclaimed connection when the device is added: come back at once as the registered
          // gateway, with the secret the add shows once
          dev.rejoinQuickly();
          const added = await add({ dev_uid: plan.uid });
          dev.useSecret(added.gateway_secret as string);
          id = added.id as number;
        }
        dev.registered = true;
        return { plan, id, connection: dev, emitter: dev };
      } catch (err) {
        await dev.close();
        throw err;
      }
    }
    case 'lora': {
      if (!ctx.network) throw new Error('no network server');
      const d =
        existing ??
        (await add({ dev_eui: plan.devEui, otaa_key: plan.otaaKey, network_server_id: ctx.network.serverId }));
      const node = new LoraNodeDevice(
        plan,
        {
          appId: ctx.app.id,
          applicationName: ctx.app.name,
          devEui: plan.devEui!,
          deviceName: plan.name,
          gatewayId: hexOf(`${ctx.app.domain}/lora-gw`, 16).toLowerCase(),
        },
        ctx.network.ns,
        env,
      );
      node.registered = true;
      ctx.network.ns.nodes.set(plan.devEui!.toUpperCase(), node);
      return { plan, id: d.id, emitter: node };
    }
    case 'emma': {
      ctx.emmaPlugins ??= (await rest.call(devicesContract.emmaPlugins, {})).plugins;
      const plugin = ctx.emmaPlugins[plan.index % ctx.emmaPlugins.length];
      if (!plugin) throw new Error('the Emma plugin cloud offers no application');
      const d =
        existing ??
        (await add({
          emma_plugin_key: plugin.emma_plugin_key,
          emma_application_plugin_id: plugin.emma_application_plugin_id,
          emma_device_plugin_details: JSON.stringify({ meter: plan.serial }),
        }));
      return { plan, id: d.id };
    }
    case 'imou': {
      const d =
        existing ??
        (await add({ imou_device_id: plan.imouDeviceId, imou_application_id: `sentra-sim-${ctx.app.domain}` }));
      return { plan, id: d.id };
    }
    case 'dummy': {
      const d = existing ?? (await add());
      return { plan, id: d.id };
    }
    default:
      throw new Error(`family ${String(plan.family)} is not simulated`);
  }
}
