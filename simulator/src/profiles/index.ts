// Every domain profile by name, and a device's simulation: its own seeded generator stepping its profile.
import { createRng, type Rng } from '../rng.js';
import { environmentProfile } from './environment.js';
import { fuelProfile } from './fuel.js';
import { gpsProfile } from './gps.js';
import { laundryProfile, plugProfile } from './laundry.js';
import { meterProfile } from './meter.js';
import { structuralProfile } from './structural.js';
import type { CommandInput, Profile, ProfileEvent, ProfileName, Reading } from './types.js';

export * from './types.js';

export const PROFILES: Record<ProfileName, Profile<any>> = {
  meter: meterProfile,
  fuel: fuelProfile,
  laundry: laundryProfile,
  plug: plugProfile,
  environment: environmentProfile,
  gps: gpsProfile,
  structural: structuralProfile,
};

/** One device's physics: deterministic from (seed, device index, profile). */
export class Simulation {
  private state: { t: number };
  private readonly rng: Rng;

  constructor(
    readonly profile: Profile<any>,
    seed: string | number,
    readonly index: number,
    startMs: number,
  ) {
    this.rng = createRng(`${seed}/${profile.name}/${index}`);
    this.state = profile.init(this.rng, { index, startMs });
  }

  get t(): number {
    return this.state.t;
  }

  /** advances simulated time; answers what happened */
  advance(dtMs: number): ProfileEvent[] {
    const r = this.profile.step(this.state, dtMs, this.rng);
    this.state = r.state;
    return r.events;
  }

  reading(): Reading {
    return this.profile.reading(this.state);
  }

  command(cmd: CommandInput): { ok: boolean; code?: number } {
    if (!this.profile.command) return { ok: false, code: -10 };
    const r = this.profile.command(this.state, cmd);
    this.state = r.state;
    return r.code === undefined ? { ok: r.ok } : { ok: r.ok, code: r.code };
  }

  /** for tests and tooling: the raw state */
  snapshot(): unknown {
    return structuredClone(this.state);
  }
}
