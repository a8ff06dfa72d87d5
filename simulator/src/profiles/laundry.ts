// Coin laundries: washers and dryers that a customer's payment switches on for one cycle, then off, with usage
// counters and vending totals (the laundry tooltips: usage count, on/off with percentages). `laundry` is one outlet's
// controller with several machines; `plug` is a single machine behind a Tasmota smart plug (POWER, ENERGY, COUNTER).
// Paid cycles are decided per hour by a hash of the machine and the hour (profiles/clock.ts), so every counter
// (cycles, transactions, sales, the plug's kWh) reads the same at the same instant in a replayed past, a live run and a
// restart; a remote start or stop is the only thing a run remembers on its own.
import { round } from '../rng.js';
import { HourlyEvents, SIM_EPOCH, keyOf, localDayStart, memoBy, hourStart, unit, weekPosition } from './clock.js';
import { activityAt, type CommandInput, type Profile, type ProfileEvent } from './types.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export type MachineKind = 'washer' | 'dryer';

const PRICE: Record<MachineKind, number> = { washer: 10_000, dryer: 12_000 };
const CYCLE_MIN: Record<MachineKind, [number, number]> = { washer: [35, 45], dryer: [40, 60] };
/** the chance an idle machine is paid for in the busiest hour */
const PEAK_CYCLES_PER_HOUR = 0.9;
/** what a running machine draws, W (its plug reads 85–100 % of it) */
const RUN_WATTS: Record<MachineKind, number> = { washer: 520, dryer: 2100 };
/** a cycle's energy: the machine draws 85 % of its rating on average over a cycle */
const cycleKwh = (c: Cycle) => (RUN_WATTS[c.kind] * 0.85 * ((c.end - c.start) / HOUR)) / 1000;

/** One paid cycle: it starts and ends inside its hour (the outlet is open 07–22; weekends 20 % busier). */
export interface Cycle {
  start: number;
  end: number;
  kind: MachineKind;
}

/** the paid cycles of one machine (`<device key>/<machine>:<kind>`), shared by every simulation of it in the process */
const cyclesOf = memoBy((id: string) => {
  const kind: MachineKind = id.endsWith(':dryer') ? 'dryer' : 'washer';
  const k = keyOf(id);
  const [lo, hi] = CYCLE_MIN[kind];
  return new HourlyEvents<Cycle>(
    (h) => {
      const at = hourStart(h);
      const { weekday, hour } = weekPosition(at);
      if (hour < 7 || hour >= 22) return null;
      const busy = Math.min(1, PEAK_CYCLES_PER_HOUR * activityAt(hour + 0.5) * (weekday >= 5 ? 1.2 : 1));
      if (unit(k, h, 0) >= busy) return null;
      const minutes = lo + (hi - lo) * unit(k, h, 1);
      const start = at + Math.floor((60 - minutes) * unit(k, h, 2) * MINUTE);
      return { start, end: start + Math.round(minutes * MINUTE), kind };
    },
    (c) => PRICE[c.kind],
  );
});

export interface Machine {
  key: string;
  kind: MachineKind;
  /** the machine's schedule (cyclesOf) */
  id: string;
  /** the usage counter at SIM_EPOCH */
  base: number;
  /** cycles started by a remote command in this run */
  extra: number;
  /** a remote start or stop holding the machine on or off until `until` */
  held: { on: boolean; until: number } | null;
}

export const newMachine = (device: string, key: string, kind: MachineKind, base: number): Machine => ({
  key,
  kind,
  id: `${device}/${key}:${kind}`,
  base,
  extra: 0,
  held: null,
});

const scheduled = (m: Machine) => cyclesOf(m.id);
export const machineOn = (m: Machine, t: number): boolean =>
  m.held && t < m.held.until ? m.held.on : scheduled(m).runningAt(t) !== null;
export const machineUsage = (m: Machine, t: number): number => m.base + scheduled(m).upTo(t).count + m.extra;
/** paid cycles since SIM_EPOCH and what they took */
const paid = (m: Machine, t: number) => scheduled(m).upTo(t);

/** What happened to a machine in (a, b]: paid cycles started (vend, on) and ended (off). */
function machineEvents(m: Machine, a: number, b: number): ProfileEvent[] {
  const cycles = scheduled(m);
  const out: ProfileEvent[] = [];
  for (const c of cycles.startedIn(a, b))
    out.push(
      { kind: 'vend', at: c.start, machine: m.key, amount: PRICE[m.kind] },
      { kind: 'on', at: c.start, machine: m.key },
    );
  for (const c of cycles.endedIn(a, b)) out.push({ kind: 'off', at: c.end, machine: m.key });
  return out.sort((x, y) => x.at - y.at);
}

/** A remote start (free cycle, e.g. a re-wash) or stop: refused as busy when the machine already runs. */
function commandMachine(m: Machine, cmd: CommandInput, t: number): { machine?: Machine; ok: boolean; code?: number } {
  if (cmd.param === 'start') {
    if (machineOn(m, t)) return { ok: false, code: -31 };
    // the machine's own timer: a deterministic mid-length cycle (commands carry no randomness)
    const [lo, hi] = CYCLE_MIN[m.kind];
    return { machine: { ...m, held: { on: true, until: t + ((lo + hi) / 2) * MINUTE }, extra: m.extra + 1 }, ok: true };
  }
  if (cmd.param === 'stop') {
    const running = scheduled(m).runningAt(t);
    return { machine: { ...m, held: { on: false, until: running ? running.end : t } }, ok: true };
  }
  return { ok: false, code: -10 };
}

export interface LaundryState {
  t: number;
  machines: Machine[];
  /** the vending totals at SIM_EPOCH */
  baseTransactions: number;
  baseSales: number;
  lastVend: { machine: string; amount: number } | null;
}

const lastVendBefore = (machines: readonly Machine[], t: number): LaundryState['lastVend'] => {
  let best: { machine: string; amount: number; at: number } | null = null;
  for (const m of machines) {
    const c = scheduled(m).lastBefore(t);
    if (c && (!best || c.start > best.at)) best = { machine: m.key, amount: PRICE[m.kind], at: c.start };
  }
  return best && { machine: best.machine, amount: best.amount };
};

/** What the outlet draws at `t`, W: its running machines (85–100 % of their rating) and 150 W of lights while open. */
export function outletWatts(machines: readonly Machine[], t: number): number {
  const { hour } = weekPosition(t);
  const running = machines.reduce(
    (w, m) => w + (machineOn(m, t) ? RUN_WATTS[m.kind] * (0.925 + 0.075 * Math.sin(t / 41_000 + m.base)) : 0),
    0,
  );
  return running + (hour >= 7 && hour < 22 ? 150 : 12);
}

export const laundryProfile: Profile<LaundryState> = {
  name: 'laundry',
  label: 'Laundry',
  init(rng, { startMs, index }) {
    const washers = rng.int(3, 6);
    const dryers = rng.int(2, 4);
    const keys = [
      ...Array.from({ length: washers }, (_, i) => [`w${i + 1}`, 'washer'] as const),
      ...Array.from({ length: dryers }, (_, i) => [`d${i + 1}`, 'dryer'] as const),
    ];
    const bases = keys.map(() => rng.int(200, 4000));
    const baseTransactions = rng.int(1000, 20000);
    // the outlet's schedule: its own key (index and a draw of its seeded generator), one per machine under it
    const device = `laundry/${index}/${rng.int(0, 2 ** 31)}`;
    const machines = keys.map(([key, kind], i) => newMachine(device, key, kind, bases[i]!));
    return {
      t: startMs,
      machines,
      baseTransactions,
      baseSales: baseTransactions * 11_000,
      lastVend: lastVendBefore(machines, startMs),
    };
  },
  step(s, dtMs) {
    const t = s.t + dtMs;
    const events = s.machines.flatMap((m) => machineEvents(m, s.t, t)).sort((a, b) => a.at - b.at);
    const last = events.filter((e) => e.kind === 'vend').at(-1);
    return {
      state: {
        ...s,
        t,
        lastVend: last ? { machine: last.machine as string, amount: last.amount as number } : s.lastVend,
      },
      events,
    };
  },
  reading(s) {
    const of = (kind: MachineKind, f: (m: Machine) => number | boolean) =>
      Object.fromEntries(s.machines.filter((m) => m.kind === kind).map((m) => [m.key, f(m)]));
    const totals = s.machines.map((m) => paid(m, s.t));
    return {
      data: {
        washer: {
          data: { power: of('washer', (m) => machineOn(m, s.t)), usage: of('washer', (m) => machineUsage(m, s.t)) },
        },
        dryer: {
          data: { power: of('dryer', (m) => machineOn(m, s.t)), usage: of('dryer', (m) => machineUsage(m, s.t)) },
        },
        // the outlet's electricity meter: the running machines and, while open, the lights and the vending controller
        meter: { data: { power: Math.round(outletWatts(s.machines, s.t)) } },
        vending: {
          data: {
            transactions: s.baseTransactions + totals.reduce((n, x) => n + x.count, 0),
            sales: s.baseSales + totals.reduce((n, x) => n + x.weight, 0),
            running: s.machines.filter((m) => machineOn(m, s.t)).length,
          },
        },
      },
      states: { last_vend: s.lastVend },
    };
  },
  command(s, cmd) {
    const value = typeof cmd.value === 'string' ? cmd.value : '';
    const i = s.machines.findIndex((x) => x.key === value && x.kind === cmd.sensor);
    if (i < 0) return { state: s, ok: false, code: -10 };
    const r = commandMachine(s.machines[i]!, cmd, s.t);
    if (!r.machine) return { state: s, ok: r.ok, ...(r.code === undefined ? {} : { code: r.code }) };
    return { state: { ...s, machines: s.machines.map((m, k) => (k === i ? r.machine! : m)) }, ok: true };
  },
};

export interface PlugState {
  t: number;
  machine: Machine;
  volt: number;
  /** ENERGY Total at SIM_EPOCH, kWh */
  base: number;
  /** energy of remote-started cycles in this run, kWh */
  extraKwh: number;
}

/** 1.5 W standby, always */
const STANDBY_KW = 0.0015;

/** The plug's ENERGY Total at `t`: standby since SIM_EPOCH, every paid cycle run so far (the running one in part). */
export function plugKwh(s: Pick<PlugState, 'machine' | 'base' | 'extraKwh'>, t: number): number {
  const cycles = scheduled(s.machine);
  let kwh = s.base + STANDBY_KW * ((t - SIM_EPOCH) / HOUR) + cycles.upTo(t).weight + s.extraKwh;
  const running = cycles.runningAt(t);
  if (running) kwh -= cycleKwh(running) * ((running.end - t) / (running.end - running.start));
  return kwh;
}

export const plugProfile: Profile<PlugState> = {
  name: 'plug',
  label: 'Mesin Laundry',
  init(rng, { startMs, index }) {
    const usage = rng.int(200, 4000);
    const volt = rng.range(218, 228);
    const base = round(rng.range(50, 3000), 3);
    const machine = newMachine(
      `plug/${index}/${rng.int(0, 2 ** 31)}`,
      'c1',
      index % 3 === 2 ? 'dryer' : 'washer',
      usage,
    );
    return { t: startMs, machine, volt, base, extraKwh: 0 };
  },
  step(s, dtMs, rng) {
    const t = s.t + dtMs;
    const events = machineEvents(s.machine, s.t, t);
    // a remote-started cycle draws its machine's power while it runs
    const held = s.machine.held;
    const heldOnMs = held?.on ? Math.max(0, Math.min(t, held.until) - s.t) : 0;
    const extraKwh = s.extraKwh + (RUN_WATTS[s.machine.kind] * 0.85 * (heldOnMs / HOUR)) / 1000;
    return { state: { ...s, t, volt: s.volt * 0.9 + rng.range(218, 228) * 0.1, extraKwh }, events };
  },
  reading(s) {
    const on = machineOn(s.machine, s.t);
    const watts = on ? RUN_WATTS[s.machine.kind] * (0.85 + 0.15 * Math.sin(s.t / 41_000)) : 1.5;
    const factor = on ? 0.93 : 0.12;
    const midnight = localDayStart(s.t);
    const total = plugKwh(s, s.t);
    const atMidnight = plugKwh(s, midnight);
    return {
      data: {
        ENERGY: {
          data: {
            Total: round(total, 3),
            Yesterday: round(atMidnight - plugKwh(s, midnight - DAY), 3),
            Today: round(total - atMidnight, 3),
            Power: Math.round(watts),
            ApparentPower: Math.round(watts / factor),
            Factor: factor,
            Voltage: Math.round(s.volt),
            Current: round(watts / factor / s.volt, 3),
          },
        },
        COUNTER: { data: { C1: machineUsage(s.machine, s.t) } },
      },
      states: { POWER: on ? 'ON' : 'OFF' },
    };
  },
  command(s, cmd) {
    // Tasmota POWER ON / OFF arrives here as start / stop of the machine's cycle
    const r = commandMachine(s.machine, cmd, s.t);
    if (!r.machine) return { state: s, ok: r.ok, ...(r.code === undefined ? {} : { code: r.code }) };
    // a paid cycle stopped early does not draw the rest of its energy
    const running = cmd.param === 'stop' ? scheduled(s.machine).runningAt(s.t) : null;
    const unused = running ? cycleKwh(running) * ((running.end - s.t) / (running.end - running.start)) : 0;
    return { state: { ...s, machine: r.machine, extraKwh: s.extraKwh - unused }, ok: true };
  },
};
