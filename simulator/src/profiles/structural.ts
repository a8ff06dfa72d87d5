// Structural health monitoring on a bridge (strain and crack cards): strain gauges in microstrain that swing with
// temperature and jump under heavy vehicles, crack widths in millimetres that open with heat and creep slowly.
import { round } from '../rng.js';
import { dayActivity, localHour, type Profile } from './types.js';

export interface StructuralState {
  t: number;
  gauges: { base: number; sensitivity: number }[];
  cracks: { width: number; creepPerDay: number }[];
  load: number;
  temperature: number;
}

export const structuralProfile: Profile<StructuralState> = {
  name: 'structural',
  label: 'Monitor Jembatan',
  init(rng, { startMs }) {
    return {
      t: startMs,
      gauges: Array.from({ length: 3 }, () => ({ base: rng.range(-150, 250), sensitivity: rng.range(6, 14) })),
      cracks: Array.from({ length: 2 }, () => ({ width: rng.range(0.15, 1.2), creepPerDay: rng.range(0.0005, 0.003) })),
      load: 0,
      temperature: 30,
    };
  },
  step(s, dtMs, rng) {
    const t = s.t + dtMs;
    // heavy vehicles: a load spike decaying within seconds, more often when traffic is busy
    const spike = rng.chance(Math.min(1, dtMs / 20_000) * dayActivity(t));
    const load = spike ? rng.range(30, 120) : s.load * Math.exp(-dtMs / 4000);
    const temperature = 29 + 6 * Math.sin(((localHour(t) - 9) / 24) * 2 * Math.PI) + rng.normal(0, 0.1);
    const cracks = s.cracks.map((c) => ({ ...c, width: c.width + (c.creepPerDay * dtMs) / 86_400_000 }));
    return {
      state: { ...s, t, load, temperature, cracks },
      events: spike && load > 80 ? [{ kind: 'heavy_load', at: t, load }] : [],
    };
  },
  reading(s) {
    return {
      data: {
        strain: {
          data: {
            microstrain: Object.fromEntries(
              s.gauges.map((g, i) => [
                `g${i + 1}`,
                round(g.base + g.sensitivity * (s.temperature - 30) + s.load * (1 + i * 0.3), 1),
              ]),
            ),
          },
        },
        crack: {
          data: {
            width: Object.fromEntries(
              s.cracks.map((c, i) => [`c${i + 1}`, round(c.width + 0.004 * (s.temperature - 30), 3)]),
            ),
            temperature: round(s.temperature, 1),
          },
        },
      },
    };
  },
};
