// Three-phase electricity meter (a shop, an office floor, a small factory): phase voltages around 220 V, currents
// that follow the day's load, power factor, frequency and the cumulative kWh a USAGE query subtracts.
import { clamp, round, type Rng } from '../rng.js';
import { dayActivity, type Profile } from './types.js';

const PHASES = ['r', 's', 't'] as const;

export interface MeterState {
  t: number;
  /** contracted load at full activity, kW */
  peakKw: number;
  /** per-phase share of the load (imbalance) */
  share: [number, number, number];
  /** slow per-phase voltage drift, V */
  vDrift: [number, number, number];
  pf: [number, number, number];
  kw: number;
  kwh: number;
  /** breaker open by command */
  tripped: boolean;
}

export const meterProfile: Profile<MeterState> = {
  name: 'meter',
  label: 'Panel Listrik',
  init(rng, { startMs }) {
    const a = rng.range(0.28, 0.38);
    const b = rng.range(0.28, 0.38);
    return {
      t: startMs,
      peakKw: round(rng.range(8, 60), 1),
      share: [a, b, 1 - a - b],
      vDrift: [0, 0, 0],
      pf: [rng.range(0.88, 0.97), rng.range(0.88, 0.97), rng.range(0.88, 0.97)],
      kw: 0,
      kwh: round(rng.range(1000, 90000), 2),
      tripped: false,
    };
  },
  step(s, dtMs, rng: Rng) {
    const t = s.t + dtMs;
    const target = s.tripped ? 0 : s.peakKw * (0.15 + 0.85 * dayActivity(t));
    // the load settles towards the day's curve with jitter (machines switching)
    const kw = Math.max(0, s.kw + (target - s.kw) * Math.min(1, dtMs / 120_000) + rng.normal(0, s.peakKw * 0.015));
    const kwh = s.kwh + ((s.kw + kw) / 2) * (dtMs / 3_600_000);
    const vDrift = s.vDrift.map((v) => clamp(v * 0.98 + rng.normal(0, 0.4), -8, 8)) as MeterState['vDrift'];
    const pf = s.pf.map((p) => clamp(p + rng.normal(0, 0.003), 0.8, 0.99)) as MeterState['pf'];
    return { state: { ...s, t, kw, kwh, vDrift, pf }, events: [] };
  },
  reading(s) {
    const volt = PHASES.map((_, i) => 220 + 5 + s.vDrift[i]!);
    const kw = PHASES.map((_, i) => s.kw * s.share[i]!);
    const amp = PHASES.map((_, i) => (kw[i]! * 1000) / (volt[i]! * s.pf[i]!));
    const by = (values: number[], digits: number) =>
      Object.fromEntries(PHASES.map((p, i) => [p, round(values[i]!, digits)]));
    return {
      data: {
        pm: {
          meter: {
            voltage: by(volt, 1),
            current: by(amp, 2),
            power: { ...by(kw, 3), total: round(s.kw, 3) },
            pf: by(s.pf, 3),
            frequency: round(50 + Math.sin(s.t / 97_000) * 0.04, 2),
            energy: round(s.kwh, 2),
          },
        },
      },
      states: { breaker: s.tripped ? 'open' : 'closed' },
    };
  },
  command(s, cmd) {
    if (cmd.param !== 'breaker') return { state: s, ok: false, code: -10 };
    const open = cmd.value === 'open' || cmd.value === false || cmd.value === 0;
    return { state: { ...s, tripped: open }, ok: true };
  },
};
