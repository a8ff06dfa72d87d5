// A small demo fleet for the card specs: the first nine devices of the simulator's mix (a meter, a fuel station, a
// laundry, Tasmota plugs ...) registered through the REST API in the tenant's application, publishing over the MQTT
// port global-setup exposes, with simulated time running 120× from a busy evening hour so values move within seconds.
import { expect } from '@playwright/test';
import type { TenantApp } from './access-fixtures.js';
import { runFleet, type FleetHandle } from '../../simulator/src/index.js';

const HOUR = 3_600_000;

/** 17:00 today in Jakarta: the evening peak of fuel sales and laundry (what the profiles' day curve says). */
const eveningPeak = () => Math.floor((Date.now() + 7 * HOUR) / (24 * HOUR)) * 24 * HOUR - 7 * HOUR + 17 * HOUR;

export async function runSmallDemoFleet(baseURL: string, t: TenantApp, seed: string): Promise<FleetHandle> {
  const fleet = await runFleet({
    url: baseURL,
    mqtt: `mqtt://127.0.0.1:${process.env.SENTRA_E2E_MQTT_PORT}`,
    username: t.username,
    password: t.pass,
    domain: t.domain,
    devices: 9,
    rate: 1,
    speed: 120,
    startMs: eveningPeak(),
    seed,
    ramp: 100,
  });
  expect(fleet.stats().lastError, 'every device registered').toBeUndefined();
  return fleet;
}
