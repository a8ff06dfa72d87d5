// The cloud integrations behind Emma and Imou devices (docs/conventions.md "Device topics"): adapter interfaces, and
// the simulated plugin cloud Sentra ships with (no real cloud is reached).
import type { EmmaPluginApplication } from '@sentra/contracts';

export interface EmmaPluginCloud {
  /** plugin applications the Sentra application may attach devices to */
  applications(appId: number): EmmaPluginApplication[];
}

export interface ImouCloud {
  /** the camera, if the Imou application knows it */
  findDevice(imouApplicationId: string, imouDeviceId: string): { name: string } | null;
}

const PLUGINS = [
  ['emma.modbus-meter', 'Modbus Energy Meter'],
  ['emma.solar-inverter', 'Solar Inverter'],
  ['emma.weather-station', 'Weather Station'],
] as const;

/** Every Sentra application sees the same three plugins, each under an application id of its own. */
export const simulatedEmmaCloud: EmmaPluginCloud = {
  applications: (appId) =>
    PLUGINS.map(([key, name]) => ({
      emma_plugin_key: key,
      emma_application_plugin_id: `app-${appId}-${key.split('.')[1]}`,
      emma_plugin_name: name,
    })),
};

/** Knows every well-formed id: the simulated cloud has no camera list of its own. */
export const simulatedImouCloud: ImouCloud = {
  findDevice: (imouApplicationId, imouDeviceId) =>
    /^[A-Za-z0-9_.-]+$/.test(imouApplicationId) && /^[A-Za-z0-9_.-]+$/.test(imouDeviceId)
      ? { name: `Imou ${imouDeviceId}` }
      : null,
};
