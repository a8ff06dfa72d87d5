// Which devices a run simulates: family, profile, serial number, name, UID or DevEUI, position; deterministic from the
// seed and the application domain (UIDs are platform-wide, so two domains never collide).
import { deviceFamilies, type DeviceFamilyKey } from '@sentra/contracts';
import { createRng, hexOf } from '../rng.js';
import { PROFILES, type ProfileName } from '../profiles/index.js';
import { JAKARTA_ROUTE } from '../profiles/gps.js';

/** How a family reaches the gateway. */
export type WireKind = 'generic' | 'tasmota' | 'lora' | 'gateway' | 'none';

export const WIRE_OF_FAMILY: Record<DeviceFamilyKey, WireKind> = {
  dummy: 'none', // the registry gives a Dummy no broker identity (see docs/decisions/simulator.md)
  sentraEnd: 'generic',
  lora: 'lora',
  zlan: 'gateway',
  usrIot: 'gateway',
  bivocom: 'gateway',
  friendcom: 'gateway',
  mqtt: 'generic',
  tasmota: 'tasmota',
  sentraGateway: 'gateway',
  emma: 'none', // cloud integrations: registered through the plugin cloud, no MQTT
  imou: 'none',
};

/** What each family plausibly carries in the field. */
export const PROFILES_OF_FAMILY: Record<DeviceFamilyKey, readonly ProfileName[]> = {
  dummy: ['meter', 'environment'],
  sentraEnd: ['meter', 'environment', 'structural'],
  lora: ['environment', 'gps', 'structural'],
  zlan: ['meter', 'fuel'],
  usrIot: ['meter', 'fuel'],
  bivocom: ['meter', 'structural'],
  friendcom: ['meter', 'environment'],
  mqtt: ['meter', 'fuel', 'laundry', 'gps', 'environment'],
  tasmota: ['plug', 'environment'],
  sentraGateway: ['meter', 'fuel', 'environment'],
  emma: ['meter'],
  imou: ['environment'],
};

/** The mixed fleet, as [family, profile, weight]; every entry appears once before weights apply. */
export const MIX: readonly [DeviceFamilyKey, ProfileName, number][] = [
  ['mqtt', 'meter', 14],
  ['mqtt', 'fuel', 7],
  ['mqtt', 'laundry', 7],
  ['mqtt', 'gps', 7],
  ['mqtt', 'environment', 4],
  ['sentraEnd', 'meter', 5],
  ['sentraEnd', 'structural', 3],
  ['tasmota', 'plug', 12],
  ['tasmota', 'environment', 4],
  ['lora', 'environment', 9],
  ['lora', 'gps', 4],
  ['lora', 'structural', 3],
  ['zlan', 'meter', 3],
  ['zlan', 'fuel', 2],
  ['usrIot', 'meter', 2],
  ['bivocom', 'structural', 2],
  ['friendcom', 'meter', 2],
  ['sentraGateway', 'meter', 2],
  ['dummy', 'environment', 1],
  ['emma', 'meter', 1],
  ['imou', 'environment', 1],
];

/** Add-call variant of the Sentra gateways, by index, so all four device types appear. */
const SENTRA_GATEWAY_VARIANTS = ['sentraIndustrial', 'sentraMini', 'sentraSensor', 'sentraAndroid'] as const;

export interface DevicePlan {
  index: number;
  family: DeviceFamilyKey;
  /** the add call's key in deviceFamilyCalls[family].adds */
  variant: string;
  wire: WireKind;
  profile: ProfileName;
  serial: string;
  name: string;
  /** serial gateways: their UID; Modbus nodes behind them */
  uid?: string;
  nodes?: number;
  /** LoRa */
  devEui?: string;
  otaaKey?: string;
  /** Imou */
  imouDeviceId?: string;
  latitude: number;
  longitude: number;
}

export interface PlanOptions {
  devices: number;
  profile: ProfileName | 'mix';
  family: DeviceFamilyKey | 'mix';
  seed: string | number;
  domain: string;
}

/** A short tag of seed and domain in serials and UIDs: the fleet of a run is found again by it. */
export const fleetTag = (seed: string | number, domain: string) => hexOf(`${domain}/${seed}`, 6);
export const serialPrefix = (seed: string | number, domain: string) => `SIM-${fleetTag(seed, domain)}-`;

function entries(opts: PlanOptions): [DeviceFamilyKey, ProfileName, number][] {
  return MIX.filter(
    ([f, p]) => (opts.profile === 'mix' || p === opts.profile) && (opts.family === 'mix' || f === opts.family),
  ).map((e) => [...e]);
}

export function planFleet(opts: PlanOptions): DevicePlan[] {
  let table = entries(opts);
  if (table.length === 0) {
    // a family with a profile the mix does not pair: allowed when the family carries that profile
    const families = opts.family === 'mix' ? (Object.keys(PROFILES_OF_FAMILY) as DeviceFamilyKey[]) : [opts.family];
    table = families.flatMap((f) =>
      (PROFILES_OF_FAMILY[f] as readonly string[])
        .filter((p) => opts.profile === 'mix' || p === opts.profile)
        .map((p) => [f, p as ProfileName, 1] as [DeviceFamilyKey, ProfileName, number]),
    );
  }
  if (table.length === 0)
    throw new Error(`no family carries profile ${opts.profile}${opts.family === 'mix' ? '' : ` on ${opts.family}`}`);
  const rng = createRng(`${opts.seed}/plan/${opts.domain}`);
  const totalWeight = table.reduce((n, e) => n + e[2], 0);
  const tag = fleetTag(opts.seed, opts.domain);
  const plans: DevicePlan[] = [];
  for (let index = 0; index < opts.devices; index++) {
    let entry = table[index];
    if (!entry) {
      let r = rng.range(0, totalWeight);
      entry = table.find((e) => (r -= e[2]) < 0) ?? table[0]!;
    }
    const [family, profile] = entry;
    plans.push(planDevice(index, family, profile, tag, opts.seed, opts.domain));
  }
  return plans;
}

function planDevice(
  index: number,
  family: DeviceFamilyKey,
  profile: ProfileName,
  tag: string,
  seed: string | number,
  domain: string,
): DevicePlan {
  const rng = createRng(`${seed}/device/${domain}/${index}`);
  const n = String(index + 1).padStart(5, '0');
  const f = deviceFamilies.find((x) => x.key === family)!;
  const variant = family === 'sentraGateway' ? SENTRA_GATEWAY_VARIANTS[index % 4]! : f.variants[0]!.key;
  const wire = WIRE_OF_FAMILY[family];
  // around the route's area: sites spread over greater Jakarta
  const [lat0, lon0] = rng.pick(JAKARTA_ROUTE);
  const plan: DevicePlan = {
    index,
    family,
    variant,
    wire,
    profile,
    serial: `SIM-${tag}-${n}`,
    name: `${PROFILES[profile].label} ${n}`.slice(0, 32),
    latitude: Number((lat0 + rng.normal(0, 0.05)).toFixed(6)),
    longitude: Number((lon0 + rng.normal(0, 0.05)).toFixed(6)),
  };
  if (wire === 'gateway') {
    plan.uid = `${family.toUpperCase()}-${tag}-${n}`;
    plan.nodes = profile === 'fuel' ? 1 : rng.int(2, 4);
  }
  if (family === 'lora') {
    plan.devEui = hexOf(`${domain}/${seed}/eui/${index}`, 16);
    plan.otaaKey = hexOf(`${domain}/${seed}/key/${index}`, 32);
  }
  if (family === 'imou') plan.imouDeviceId = `IMOU${tag}${n}`;
  return plan;
}
