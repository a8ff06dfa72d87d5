// The cloud integrations, which do not speak MQTT and so have no wire family: an Emma plugin application's device
// (`plugin`) and an Imou cloud device (`cloud`). Adding one checks that its cloud knows it.
import { T } from '@sentra/contracts';
import { invalid } from '../../../../platform/http/errors.js';
import type { FamilyBehaviour, FamilyDeps } from '../registration.js';

/** `plugin`: a device of one of the application's Emma plugin applications */
export const pluginRegistration = (deps: FamilyDeps): FamilyBehaviour => ({
  prepareAdd(appId, _f, input) {
    const plugin = deps.emma
      .applications(appId)
      .find(
        (p) =>
          p.emma_plugin_key === input.emma_plugin_key &&
          p.emma_application_plugin_id === input.emma_application_plugin_id,
      );
    if (!plugin)
      throw invalid(T.devices.serverUnknownPlugin, [
        { path: 'emma_plugin_key', message: T.devices.serverUnknownPlugin },
      ]);
    return { columns: {}, details: { ...plugin, emma_device_plugin_details: input.emma_device_plugin_details } };
  },
  info: (_r, _f, d) => ({
    emma_plugin_definition: { name: d.emma_plugin_name ?? '' },
    emma_plugin_application_id: d.emma_application_plugin_id ?? '',
    emma_plugin_details: d.emma_device_plugin_details ?? '{}',
  }),
});

/** `cloud`: an Imou cloud device */
export const cloudRegistration = (deps: FamilyDeps): FamilyBehaviour => ({
  prepareAdd(_a, _f, input) {
    if (!deps.imou.findDevice(input.imou_application_id, input.imou_device_id))
      throw invalid(T.common.notFound, [{ path: 'imou_device_id', message: T.common.notFound }]);
    return {
      columns: {},
      details: { imou_device_id: input.imou_device_id, imou_application_id: input.imou_application_id },
    };
  },
  info: (_r, _f, d) => ({ imou_device_id: d.imou_device_id ?? '', imou_application_id: d.imou_application_id ?? '' }),
});
