import { FUEL_FILL_ALERT_LITRES, FUEL_PRODUCTS } from '@sentra/contracts';
import { describe, expect, it } from 'vitest';
import { PROFILE_NAMES, PROFILES, Simulation, type ProfileEvent, type Reading } from './index.js';

const START = Date.UTC(2025, 0, 6, 23, 0, 0); // 06:00 in Jakarta
const MIN = 60_000;

function run(profile: keyof typeof PROFILES, seed: string | number, steps: number, dtMs: number, index = 0) {
  const sim = new Simulation(PROFILES[profile], seed, index, START);
  const readings: Reading[] = [];
  const events: ProfileEvent[] = [];
  for (let i = 0; i < steps; i++) {
    events.push(...sim.advance(dtMs));
    readings.push(sim.reading());
  }
  return { sim, readings, events };
}

describe('determinism', () => {
  it.each(PROFILE_NAMES)('the same seed gives the same values (%s)', (name) => {
    const a = run(name, 'seed-42', 300, 30_000, 7);
    const b = run(name, 'seed-42', 300, 30_000, 7);
    expect(JSON.stringify(b.readings)).toBe(JSON.stringify(a.readings));
    expect(b.events).toEqual(a.events);
  });

  it.each(PROFILE_NAMES)('another seed or another device gives other values (%s)', (name) => {
    const a = JSON.stringify(run(name, 'seed-42', 50, 60_000, 7).readings);
    expect(JSON.stringify(run(name, 'seed-43', 50, 60_000, 7).readings)).not.toBe(a);
    expect(JSON.stringify(run(name, 'seed-42', 50, 60_000, 8).readings)).not.toBe(a);
  });
});

/** every counter a profile reports (USAGE reads them), by name */
const COUNTERS: Partial<Record<(typeof PROFILE_NAMES)[number], (r: Reading) => Record<string, number>>> = {
  meter: (r) => ({ energy: r.data.pm!.meter!.energy as number }),
  gps: (r) => ({ odometer: r.data.gps!.data!.odometer as number }),
  fuel: (r) => r.data.pump!.data!.totalizer as Record<string, number>,
  laundry: (r) => ({
    ...(r.data.washer!.data!.usage as Record<string, number>),
    ...(r.data.dryer!.data!.usage as Record<string, number>),
    transactions: r.data.vending!.data!.transactions as number,
    sales: r.data.vending!.data!.sales as number,
  }),
  plug: (r) => ({ Total: r.data.ENERGY!.data!.Total as number, C1: r.data.COUNTER!.data!.C1 as number }),
};

describe('counters are one series: a replayed past, a live run and a restart read the same at the same instant', () => {
  const DAY = 24 * 60 * MIN;
  it.each(Object.keys(COUNTERS) as (keyof typeof COUNTERS)[])('%s', (name) => {
    const counters = COUNTERS[name]!;
    // a week replayed in 30-minute steps, then live every 10 s for an hour
    const replayed = new Simulation(PROFILES[name], 'demo', 3, START - 7 * DAY);
    while (replayed.t < START) replayed.advance(30 * MIN);
    for (let i = 0; i < 360; i++) replayed.advance(10_000);
    // the same device started just now (a restart: no past), live every 10 s
    const restarted = new Simulation(PROFILES[name], 'demo', 3, START);
    for (let i = 0; i < 360; i++) restarted.advance(10_000);
    expect(restarted.t).toBe(replayed.t);
    expect(counters(restarted.reading())).toEqual(counters(replayed.reading()));
  });

  it('the meter reads the kWh its load drew: a day at most its contracted kW × 24 h, a Sunday less than a Tuesday', () => {
    const sim = new Simulation(PROFILES.meter, 'demo', 3, START);
    const peakKw = (sim.snapshot() as { peakKw: number }).peakKw;
    const kwh = () => sim.reading().data.pm!.meter!.energy as number;
    const day = () => {
      const from = kwh();
      for (let i = 0; i < 24 * 60; i++) sim.advance(MIN);
      return kwh() - from;
    };
    const tuesday = day(); // START is 06:00 on a Tuesday
    expect(tuesday).toBeGreaterThan(0.15 * peakKw * 24);
    expect(tuesday).toBeLessThan(peakKw * 24);
    for (let d = 0; d < 4; d++) day(); // to Sunday 06:00
    expect(day()).toBeLessThan(tuesday);
  });

  it('a van drives by day and parks at night: no more than 80 km/h × the hours it moved', () => {
    const sim = new Simulation(PROFILES.gps, 'demo', 3, START);
    const km = () => sim.reading().data.gps!.data!.odometer as number;
    const from = km();
    let moving = 0;
    for (let i = 0; i < 24 * 60; i++) {
      sim.advance(MIN);
      if ((sim.reading().data.gps!.data!.speed as number) > 0) moving++;
    }
    expect(km() - from).toBeGreaterThan(50);
    expect(km() - from).toBeLessThanOrEqual((80 * moving) / 60);
    expect(moving).toBeLessThan(16 * 60);
  });
});

describe('fuel station (the fuel tooltips)', () => {
  const { readings, events } = run('fuel', 3, 3 * 24 * 60, MIN);
  const tanks = (r: Reading) => r.data.tank!.data as Record<string, { volume: number; fill: number; level: number }>;
  const of = (key: 'volume' | 'fill') => (r: Reading) =>
    Object.fromEntries(Object.entries(tanks(r)).map(([p, t]) => [p, t[key]]));
  const volume = of('volume');
  const fill = of('fill');

  it('has a tank per product, named as the tooltips name them', () => {
    for (const p of Object.keys(tanks(readings[0]!))) expect(FUEL_PRODUCTS).toContain(p);
    expect(Object.keys(tanks(readings[0]!))).toEqual(expect.arrayContaining(['Pertalite', 'Pertamax', 'Biosolar']));
  });

  it("reports each product as one param with the tooltip's subparams volume and fill (and level)", () => {
    for (const t of Object.values(tanks(readings[0]!))) expect(Object.keys(t)).toEqual(['volume', 'fill', 'level']);
    const t = tanks(readings.at(-1)!).Pertalite!;
    expect(t.level).toBeGreaterThan(0);
    expect(t.level).toBeLessThanOrEqual(100);
    expect(t.volume).toBeGreaterThan(200);
  });

  it('remaining litres fall with sales and jump at refills', () => {
    const refills = events.filter((e) => e.kind === 'refill');
    expect(refills.length).toBeGreaterThan(0);
    let falls = 0;
    let jumps = 0;
    for (let i = 1; i < readings.length; i++) {
      for (const [product, v] of Object.entries(volume(readings[i]!))) {
        const before = volume(readings[i - 1]!)[product]!;
        if (v < before) falls++;
        if (v - before >= 1000) {
          jumps++;
          expect(fill(readings[i]!)[product]).toBeGreaterThanOrEqual(1000);
        }
      }
    }
    expect(falls).toBeGreaterThan(1000);
    expect(jumps).toBe(refills.length);
  });

  it(`records a fill below ${FUEL_FILL_ALERT_LITRES} L now and then (the fraud hint)`, () => {
    const small = events.filter((e) => e.kind === 'small_fill');
    expect(small.length).toBeGreaterThanOrEqual(1);
    const reported = readings.flatMap((r) => Object.values(fill(r)).filter((l) => l > 0 && l < FUEL_FILL_ALERT_LITRES));
    expect(reported.length).toBe(small.length);
  });

  it('keeps pump totalizers rising and totals per shift that restart at each shift change', () => {
    const totalizers = readings.map((r) => Object.values(r.data.pump!.data!.totalizer as Record<string, number>));
    for (let i = 1; i < totalizers.length; i++)
      totalizers[i]!.forEach((v, p) => expect(v).toBeGreaterThanOrEqual(totalizers[i - 1]![p]!));
    const ends = events.filter((e) => e.kind === 'shift_end');
    expect(ends.length).toBeGreaterThanOrEqual(8); // three days, three shifts a day
    expect(ends.map((e) => e.shift)).toContain(3);
    expect(Object.values(ends[1]!.totals as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(100);
    const shifts = readings.map((r) => r.data.pump!.data!.shift as number);
    const change = shifts.findIndex((s, i) => i > 0 && s !== shifts[i - 1]);
    const totalAfter = Object.values(readings[change]!.data.pump!.data!.shift_total as Record<string, number>).reduce(
      (a, b) => a + b,
      0,
    );
    const totalBefore = Object.values(
      readings[change - 1]!.data.pump!.data!.shift_total as Record<string, number>,
    ).reduce((a, b) => a + b, 0);
    expect(totalAfter).toBeLessThan(totalBefore);
  });
});

describe('laundry (the laundry tooltips)', () => {
  const { readings, events, sim } = run('laundry', 5, 2 * 24 * 60, MIN);

  it('switches machines on with a vending transaction and off at the end of the cycle', () => {
    const vends = events.filter((e) => e.kind === 'vend');
    expect(vends.length).toBeGreaterThan(10);
    expect(events.filter((e) => e.kind === 'off').length).toBeGreaterThan(5);
    const power = readings.map(
      (r) =>
        ({ ...(r.data.washer!.data!.power as object), ...(r.data.dryer!.data!.power as object) }) as Record<
          string,
          boolean
        >,
    );
    const ons = power.filter((p) => Object.values(p).some(Boolean)).length;
    expect(ons).toBeGreaterThan(0);
    expect(ons).toBeLessThan(power.length); // closed at night: an on/off percentage between 0 and 100
  });

  it('counts usage and vending transactions', () => {
    const first = readings[0]!.data;
    const last = readings.at(-1)!.data;
    const usage = (d: typeof first) =>
      Object.values({ ...(d.washer!.data!.usage as object), ...(d.dryer!.data!.usage as object) } as Record<
        string,
        number
      >).reduce((a, b) => a + b, 0);
    const vends = events.filter((e) => e.kind === 'vend').length;
    expect(usage(last) - usage(first)).toBeGreaterThanOrEqual(vends - 10);
    expect(
      (last.vending!.data!.transactions as number) - (first.vending!.data!.transactions as number),
    ).toBeGreaterThan(0);
    expect(last.vending!.data!.sales as number).toBeGreaterThan(0);
  });

  it('refuses to start a machine that is running (busy) and starts an idle one', () => {
    const power = (r: Reading) => ({
      washer: r.data.washer!.data!.power as Record<string, boolean>,
      dryer: r.data.dryer!.data!.power as Record<string, boolean>,
    });
    const now = power(sim.reading());
    const idle = (['washer', 'dryer'] as const)
      .flatMap((kind) => Object.entries(now[kind]).map(([key, on]) => ({ kind, key, on })))
      .find((m) => !m.on)!;
    expect(sim.command({ sensor: idle.kind, configtype: 'data', param: 'start', value: idle.key })).toEqual({
      ok: true,
    });
    expect(sim.command({ sensor: idle.kind, configtype: 'data', param: 'start', value: idle.key })).toEqual({
      ok: false,
      code: -31,
    });
  });

  it("reports the outlet's power beside its running machines, and they agree (no 517 W with 0 machines running)", () => {
    for (const r of readings) {
      const running = r.data.vending!.data!.running as number;
      const watts = r.data.meter!.data!.power as number;
      // lights and the controller draw at most 150 W; a washer at least 0.85 × 520 W, a dryer 0.85 × 2,100 W
      if (running === 0) expect(watts).toBeLessThanOrEqual(150);
      else expect(watts).toBeGreaterThanOrEqual(running * 0.85 * 520);
    }
    expect(readings.some((r) => (r.data.vending!.data!.running as number) > 0)).toBe(true);
  });

  it('sells what its machines ran: sales between Rp 10,000 and Rp 12,000 per transaction, day by day', () => {
    const sales = (r: Reading) => r.data.vending!.data!.sales as number;
    const tx = (r: Reading) => r.data.vending!.data!.transactions as number;
    const first = readings[0]!;
    const last = readings.at(-1)!;
    const n = tx(last) - tx(first);
    expect(n).toBeGreaterThan(0);
    expect(sales(last) - sales(first)).toBeGreaterThanOrEqual(10_000 * n);
    expect(sales(last) - sales(first)).toBeLessThanOrEqual(12_000 * n);
  });

  it('a Tasmota laundry plug reports POWER, ENERGY and its usage counter', () => {
    const plug = run('plug', 9, 24 * 60, MIN);
    expect(new Set(plug.readings.map((r) => r.states!.POWER))).toEqual(new Set(['ON', 'OFF']));
    const totals = plug.readings.map((r) => r.data.ENERGY!.data!.Total as number);
    expect(totals.at(-1)!).toBeGreaterThan(totals[0]!);
    expect(plug.readings.at(-1)!.data.COUNTER!.data!.C1).toBeGreaterThan(
      plug.readings[0]!.data.COUNTER!.data!.C1 as number,
    );
  });
});

describe('other profiles', () => {
  it('meters count kWh upwards (USAGE) with three phases around 220 V', () => {
    const { readings } = run('meter', 1, 24 * 60, MIN);
    const kwh = readings.map((r) => r.data.pm!.meter!.energy as number);
    for (let i = 1; i < kwh.length; i++) expect(kwh[i]).toBeGreaterThanOrEqual(kwh[i - 1]!);
    const v = readings[100]!.data.pm!.meter!.voltage as Record<string, number>;
    expect(Object.keys(v)).toEqual(['r', 's', 't']);
    Object.values(v).forEach((x) => expect(x).toBeGreaterThan(205));
  });

  it('GPS trackers move along the route inside Jakarta', () => {
    const { readings } = run('gps', 1, 600, 10_000);
    const pos = readings.map((r) => [r.data.gps!.data!.latitude as number, r.data.gps!.data!.longitude as number]);
    expect(new Set(pos.map((p) => p.join())).size).toBeGreaterThan(100);
    pos.forEach(
      ([lat, lon]) => (
        expect(lat).toBeGreaterThan(-6.26),
        expect(lat).toBeLessThan(-6.16),
        expect(lon).toBeGreaterThan(106.79),
        expect(lon).toBeLessThan(106.85)
      ),
    );
  });

  it('environment and structural readings stay in physical ranges', () => {
    for (const r of run('environment', 2, 2 * 24 * 60, MIN).readings) {
      const e = r.data.env!.data! as Record<string, number>;
      expect(e.temperature).toBeGreaterThan(18);
      expect(e.temperature).toBeLessThan(40);
      expect(e.humidity).toBeLessThanOrEqual(99);
      expect(e.pressure).toBeGreaterThan(995);
    }
    const s = run('structural', 2, 24 * 60, MIN).readings;
    const widths = s.map((r) => (r.data.crack!.data!.width as Record<string, number>).c1!);
    widths.forEach((w) => expect(w).toBeGreaterThan(0));
  });
});
