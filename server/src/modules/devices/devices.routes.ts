// Device calls: the common ones, and every family's add/remove/sensors/get/check mounted by one loop over the table.
import { T, deviceFamilyCalls, devicesContract, type CallDef } from '@sentra/contracts';
import { fail, notFound } from '../../platform/http/errors.js';
import { implement, type BoundRoute, type CallContext, type Handler } from '../../platform/http/mount.js';
import { DeviceCode } from '@sentra/contracts';
import type { Activation } from './activation.js';
import type { EmmaPluginCloud } from './cloud.js';
import type { DeviceService } from './devices.service.js';
import { createDummyDashboard, type AddRootDashboard } from './dummy-dashboard.js';
import { uidHiddenFrom } from './families/index.js';
import { requestOrigin } from './broker-address.js';

export interface DeviceRouteDeps {
  /** the dashboards domain's root dashboard add ("Generate Dashboard" of a dummy device) */
  addDashboard: AddRootDashboard;
  devices: DeviceService;
  activation: Activation;
  emma: EmmaPluginCloud;
  now?: () => number;
}

type Ctx = CallContext<CallDef> & { input: Record<string, any> };
const route = (def: CallDef, fn: (ctx: Ctx) => unknown): BoundRoute => ({ def, handler: fn as Handler<CallDef> });

export function devicesRoutes({
  addDashboard,
  devices,
  activation,
  emma,
  now = Date.now,
}: DeviceRouteDeps): BoundRoute[] {
  const common = implement(devicesContract, {
    pick: ({ caller, input }) => devices.pick(caller.app!.id, input),
    filter: ({ caller, input }) => devices.filter(caller.app!.id, input),
    get: async ({ caller, input }) => ({ data: await devices.get(caller.app!.id, input.id) }),
    edit: async ({ caller, input }) => ({ data: await devices.edit(caller.app!.id, input) }),
    tokenGenerate: async ({ caller }) => ({ credentials_token: await activation.generateToken(caller.app!.id) }),
    brokerSecretRegenerate: async ({ caller, input }) => ({
      data: await devices.regenerateSecret(caller.app!.id, input.id),
    }),
    tokenCheck: async ({ caller, input }) => {
      const token = await activation.connectedToken(caller.app!.id, input.token);
      if (!token) throw fail(DeviceCode.NOT_ACTIVATED, T.devices.serverNotConnected);
      return { connected_ts: token.connectedAt! };
    },
    emmaPlugins: ({ caller }) => ({ plugins: emma.applications(caller.app!.id) }),
    dummyDashboard: async ({ caller, input }) => {
      const device = await devices.get(caller.app!.id, input.device_id);
      if (device.category !== deviceFamilyCalls.dummy.family.category) throw notFound();
      return { data: await createDummyDashboard(addDashboard, caller.app!.id, device, input.name, now()) };
    },
  });

  const perFamily = Object.values(deviceFamilyCalls).flatMap(({ family, adds, remove, sensors, get, check }) => [
    ...family.variants.map((variant) =>
      route(adds[variant.key]!, async ({ caller, input, req }) => ({
        data: await devices.add(caller!.app!.id, family, variant, input, requestOrigin(req)),
      })),
    ),
    route(remove, ({ caller, input }) => devices.remove(caller!.app!.id, family, input.id)),
    route(sensors, async ({ caller, input }) => ({
      data: await devices.editSensors(caller!.app!.id, family, input.id, input.sensors),
    })),
    route(get, async ({ caller, input, req }) => ({
      data: await devices.getFamily(caller!.app!.id, family, input.id, requestOrigin(req)),
    })),
    ...(check
      ? [
          route(check, async ({ caller, input }) => {
            const uid = String(input.dev_uid || input.token);
            const owner = await devices.byUid(uid);
            // registered in this application: taken; in another: the same answer as a UID never heard
            // (families/gateway/registration.ts)
            if (owner && !uidHiddenFrom(caller!.app!.id, owner)) throw fail(-12, T.devices.serverUidTaken);
            const heard = owner ? undefined : await activation.lastHeard(uid);
            if (heard === undefined) throw fail(DeviceCode.NOT_ACTIVATED, T.devices.serverUidNotHeard);
            return { dev_uid: uid, heard_ts: heard };
          }),
        ]
      : []),
  ]);
  return [...common, ...perFamily];
}
