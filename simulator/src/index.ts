// @sentra/simulator: the simulated device fleet as a library (the gateway's demo and the benchmarks run it in-process)
// and its parts (profiles, wire formats) for tests.
export {
  runFleet,
  createFleet,
  DEFAULTS,
  type FleetHandle,
  type FleetOptions,
  type FleetSnapshot,
  type FleetSummary,
} from './fleet/run.js';
export {
  planFleet,
  serialPrefix,
  MIX,
  WIRE_OF_FAMILY,
  PROFILES_OF_FAMILY,
  type DevicePlan,
  type WireKind,
} from './fleet/plan.js';
export type { RegisteredDevice, AppInfo } from './fleet/register.js';
export type { FaultMode } from './fleet/devices.js';
export {
  PROFILES,
  PROFILE_NAMES,
  Simulation,
  type ProfileName,
  type Reading,
  type ProfileEvent,
} from './profiles/index.js';
export * as wire from './wire/index.js';
export { createRng } from './rng.js';
export {
  DEMO_FLEET,
  DEMO_ROLE,
  demoFleetOptions,
  demoDashboards,
  demoDashboardProblems,
  demoRole,
  installDemoDashboards,
  roleTag,
  tagDemoFleet,
  type DemoDashboard,
  type DemoDevice,
} from './demo.js';
