// Coin laundries: washers and dryers that a customer's payment switches on for one cycle, then off, with usage
// counters and vending totals (the laundry tooltips: usage count, on/off with percentages). `laundry` is one outlet's
// controller with several machines; `plug` is a single machine behind a Tasmota smart plug (POWER, ENERGY, COUNTER).
import { round, type Rng } from '../rng.js';
import { dayActivity, localHour, type CommandInput, type Profile, type ProfileEvent } from './types.js';

const MINUTE = 60_000;
const HOUR = 3_600_000;

export type MachineKind = 'washer' | 'dryer';

export interface Machine {
  key: string;
  kind: MachineKind;
  on: boolean;
  /** when the running cycle ends */
  endsAt: number;
  usage: number;
  sales: number;
}

const PRICE: Record<MachineKind, number> = { washer: 10_000, dryer: 12_000 };
const CYCLE_MIN: Record<MachineKind, [number, number]> = { washer: [35, 45], dryer: [40, 60] };
/** cycles per hour an idle machine is paid for at the busiest hour */
const PEAK_CYCLES_PER_HOUR = 0.9;

export const newMachine = (key: string, kind: MachineKind, rng: Rng): Machine => ({
  key,
  kind,
  on: false,
  endsAt: 0,
  usage: rng.int(200, 4000),
  sales: 0,
});

/** One step of a machine: a running cycle ends, an idle machine may be paid for. Mutates the copy it is given. */
function stepMachine(m: Machine, t: number, dtMs: number, rng: Rng, events: ProfileEvent[]): void {
  if (m.on && t >= m.endsAt) {
    m.on = false;
    events.push({ kind: 'off', at: m.endsAt, machine: m.key });
  }
  // laundries open 07-22
  const open = localHour(t) >= 7 && localHour(t) < 22;
  if (!m.on && open && rng.chance(PEAK_CYCLES_PER_HOUR * dayActivity(t) * (dtMs / HOUR))) {
    startCycle(m, t, rng);
    m.sales += PRICE[m.kind];
    events.push({ kind: 'vend', at: t, machine: m.key, amount: PRICE[m.kind] }, { kind: 'on', at: t, machine: m.key });
  }
}

function startCycle(m: Machine, t: number, rng: Rng) {
  const [lo, hi] = CYCLE_MIN[m.kind];
  m.on = true;
  m.endsAt = t + rng.range(lo, hi) * MINUTE;
  m.usage += 1;
}

/** A remote start (free cycle, e.g. a re-wash) or stop: refused as busy when the machine already runs. */
function commandMachine(m: Machine, cmd: CommandInput, t: number): { ok: boolean; code?: number } {
  if (cmd.param === 'start') {
    if (m.on) return { ok: false, code: -31 };
    // the machine's own timer: a deterministic mid-length cycle (commands carry no randomness)
    const [lo, hi] = CYCLE_MIN[m.kind];
    Object.assign(m, { on: true, endsAt: t + ((lo + hi) / 2) * MINUTE, usage: m.usage + 1 });
    return { ok: true };
  }
  if (cmd.param === 'stop') {
    Object.assign(m, { on: false, endsAt: t });
    return { ok: true };
  }
  return { ok: false, code: -10 };
}

export interface LaundryState {
  t: number;
  machines: Machine[];
  transactions: number;
  sales: number;
  lastVend: { machine: string; amount: number } | null;
}

export const laundryProfile: Profile<LaundryState> = {
  name: 'laundry',
  label: 'Laundry',
  init(rng, { startMs }) {
    const washers = rng.int(3, 6);
    const dryers = rng.int(2, 4);
    const machines = [
      ...Array.from({ length: washers }, (_, i) => newMachine(`w${i + 1}`, 'washer', rng)),
      ...Array.from({ length: dryers }, (_, i) => newMachine(`d${i + 1}`, 'dryer', rng)),
    ];
    return { t: startMs, machines, transactions: rng.int(1000, 20000), sales: 0, lastVend: null };
  },
  step(s, dtMs, rng) {
    const t = s.t + dtMs;
    const events: ProfileEvent[] = [];
    const machines = s.machines.map((m) => ({ ...m }));
    machines.forEach((m) => stepMachine(m, t, dtMs, rng, events));
    const vends = events.filter((e) => e.kind === 'vend');
    const last = vends.at(-1);
    return {
      state: {
        t,
        machines,
        transactions: s.transactions + vends.length,
        sales: s.sales + vends.reduce((n, e) => n + (e.amount as number), 0),
        lastVend: last ? { machine: last.machine as string, amount: last.amount as number } : s.lastVend,
      },
      events,
    };
  },
  reading(s) {
    const of = (kind: MachineKind, f: (m: Machine) => number | boolean) =>
      Object.fromEntries(s.machines.filter((m) => m.kind === kind).map((m) => [m.key, f(m)]));
    return {
      data: {
        washer: { data: { power: of('washer', (m) => m.on), usage: of('washer', (m) => m.usage) } },
        dryer: { data: { power: of('dryer', (m) => m.on), usage: of('dryer', (m) => m.usage) } },
        vending: {
          data: { transactions: s.transactions, sales: s.sales, running: s.machines.filter((m) => m.on).length },
        },
      },
      states: { last_vend: s.lastVend },
    };
  },
  command(s, cmd) {
    const value = typeof cmd.value === 'string' ? cmd.value : '';
    const machines = s.machines.map((m) => ({ ...m }));
    const m = machines.find((x) => x.key === value && x.kind === cmd.sensor);
    if (!m) return { state: s, ok: false, code: -10 };
    const r = commandMachine(m, cmd, s.t);
    return r.ok ? { state: { ...s, machines }, ok: true } : { state: s, ...r };
  },
};

export interface PlugState {
  t: number;
  machine: Machine;
  volt: number;
  /** kWh: total, today, yesterday, as Tasmota's ENERGY keeps them */
  total: number;
  today: number;
  yesterday: number;
  day: number;
}

const RUN_WATTS: Record<MachineKind, number> = { washer: 520, dryer: 2100 };
const dayNo = (t: number) => Math.floor((t + 7 * HOUR) / (24 * HOUR));

export const plugProfile: Profile<PlugState> = {
  name: 'plug',
  label: 'Mesin Laundry',
  init(rng, { startMs, index }) {
    return {
      t: startMs,
      machine: newMachine('c1', index % 3 === 2 ? 'dryer' : 'washer', rng),
      volt: rng.range(218, 228),
      total: round(rng.range(50, 3000), 3),
      today: 0,
      yesterday: round(rng.range(2, 12), 3),
      day: dayNo(startMs),
    };
  },
  step(s, dtMs, rng) {
    const t = s.t + dtMs;
    const events: ProfileEvent[] = [];
    const machine = { ...s.machine };
    const wasOn = machine.on;
    stepMachine(machine, t, dtMs, rng, events);
    const kwh = wasOn || machine.on ? (RUN_WATTS[machine.kind] * dtMs) / HOUR / 1000 : 0.0015 * (dtMs / HOUR); // 1.5 W standby
    let { today, yesterday, day } = s;
    if (dayNo(t) !== day) [yesterday, today, day] = [today, 0, dayNo(t)];
    return {
      state: {
        ...s,
        t,
        machine,
        volt: s.volt * 0.9 + rng.range(218, 228) * 0.1,
        total: s.total + kwh,
        today: today + kwh,
        yesterday,
        day,
      },
      events,
    };
  },
  reading(s) {
    const watts = s.machine.on ? RUN_WATTS[s.machine.kind] * (0.85 + 0.15 * Math.sin(s.t / 41_000)) : 1.5;
    const factor = s.machine.on ? 0.93 : 0.12;
    return {
      data: {
        ENERGY: {
          data: {
            Total: round(s.total, 3),
            Yesterday: round(s.yesterday, 3),
            Today: round(s.today, 3),
            Power: Math.round(watts),
            ApparentPower: Math.round(watts / factor),
            Factor: factor,
            Voltage: Math.round(s.volt),
            Current: round(watts / factor / s.volt, 3),
          },
        },
        COUNTER: { data: { C1: s.machine.usage } },
      },
      states: { POWER: s.machine.on ? 'ON' : 'OFF' },
    };
  },
  command(s, cmd) {
    // Tasmota POWER ON / OFF arrives here as start / stop of the machine's cycle
    const machine = { ...s.machine };
    const r = commandMachine(machine, cmd, s.t);
    return r.ok ? { state: { ...s, machine }, ok: true } : { state: s, ...r };
  },
};
