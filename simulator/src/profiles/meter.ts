// Three-phase electricity meter (a shop, an office floor, a small factory): phase voltages around 220 V, currents
// that follow the day's load, power factor, frequency and the cumulative kWh a USAGE query subtracts. The kWh counter
// is the load's closed-form integral since SIM_EPOCH (profiles/clock.ts): whatever steps a run takes, and whenever it
// starts, the meter reads the same kWh at the same instant, so a replayed week and the live run join.
import { clamp, round, type Rng } from '../rng.js';
import { WeeklyRate } from './clock.js';
import { activityAt, type Profile } from './types.js';

const PHASES = ['r', 's', 't'] as const;

/** Saturdays draw 80 % of a weekday's load, Sundays 60 % */
const WEEKDAY_LOAD = [1, 1, 1, 1, 1, 0.8, 0.6] as const;
/** the share of a meter's contracted load drawn at each moment of the week: a base load and the day's activity */
export const METER_LOAD = new WeeklyRate((weekday, hour) => (0.15 + 0.85 * activityAt(hour)) * WEEKDAY_LOAD[weekday]!);

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
  /** the counter at SIM_EPOCH, kWh */
  base: number;
  /** energy not drawn while the breaker was open (a live command; a restart forgets it), kWh */
  lost: number;
  kwh: number;
  /** breaker open by command */
  tripped: boolean;
}

/** The counter at `t`: its base, the load drawn since SIM_EPOCH, less what an open breaker kept off. */
export const meterKwh = (s: Pick<MeterState, 'base' | 'peakKw' | 'lost'>, t: number): number =>
  s.base + s.peakKw * METER_LOAD.integral(t) - s.lost;

export const meterProfile: Profile<MeterState> = {
  name: 'meter',
  label: 'Panel Listrik',
  init(rng, { startMs }) {
    const a = rng.range(0.28, 0.38);
    const b = rng.range(0.28, 0.38);
    const peakKw = round(rng.range(8, 60), 1);
    const pf: MeterState['pf'] = [rng.range(0.88, 0.97), rng.range(0.88, 0.97), rng.range(0.88, 0.97)];
    const base = round(rng.range(1000, 90000), 2);
    return {
      t: startMs,
      peakKw,
      share: [a, b, 1 - a - b],
      vDrift: [0, 0, 0],
      pf,
      kw: peakKw * METER_LOAD.at(startMs),
      base,
      lost: 0,
      kwh: meterKwh({ base, peakKw, lost: 0 }, startMs),
      tripped: false,
    };
  },
  step(s, dtMs, rng: Rng) {
    const t = s.t + dtMs;
    const target = s.tripped ? 0 : s.peakKw * METER_LOAD.at(t);
    // the load settles towards the day's curve with jitter (machines switching)
    const kw = Math.max(0, s.kw + (target - s.kw) * Math.min(1, dtMs / 120_000) + rng.normal(0, s.peakKw * 0.015));
    const lost = s.tripped ? s.lost + s.peakKw * METER_LOAD.between(s.t, t) : s.lost;
    const vDrift = s.vDrift.map((v) => clamp(v * 0.98 + rng.normal(0, 0.4), -8, 8)) as MeterState['vDrift'];
    const pf = s.pf.map((p) => clamp(p + rng.normal(0, 0.003), 0.8, 0.99)) as MeterState['pf'];
    return { state: { ...s, t, kw, lost, kwh: meterKwh({ ...s, lost }, t), vDrift, pf }, events: [] };
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
