// A fuel station (SPBU): one underground tank per product whose litres fall with the pumps' sales and jump when a
// tank truck delivers, now and then a "fill" below 300 L (the fraud hint of the fuel tooltip), pump totalizers and
// per-shift totals (three shifts: 06-14, 14-22, 22-06 local time). On the wire each product is one param of
// `tank/data` with subparams `volume`, `fill`, `level`: the fuel tooltip's remaining litres and fill of one product
// come from one graph query (subparam ['volume', 'fill']).
import { FUEL_FILL_ALERT_LITRES, FUEL_PRODUCTS } from '@sentra/contracts';
import { round, type Rng } from '../rng.js';
import { WeeklyRate } from './clock.js';
import { activityAt, localHour, type Profile, type ProfileEvent } from './types.js';

export type FuelProduct = (typeof FUEL_PRODUCTS)[number];

/** Peak-hour sales of a busy urban station, litres per hour per product. */
const PEAK_LPH: Record<FuelProduct, number> = {
  Premium: 160,
  Pertamax: 260,
  Pertalite: 900,
  Biosolar: 320,
  'Pertamax Turbo': 60,
};
/** The station's trade over the week (share of the peak hour): Friday and Saturday busier, Sunday quieter. */
export const FUEL_TRADE = new WeeklyRate(
  (weekday, hour) => activityAt(hour) * (weekday === 4 || weekday === 5 ? 1.1 : weekday === 6 ? 0.9 : 1),
);
/** What one tank-truck compartment carries. */
const COMPARTMENT_L = 8000;
const HOUR = 3_600_000;

interface Tank {
  product: FuelProduct;
  capacity: number;
  volume: number;
  /** litres delivered during the last step (0 most of the time) */
  fill: number;
  /** a truck is on its way: delivery time */
  deliveryAt: number | null;
}

export interface FuelState {
  t: number;
  tanks: Tank[];
  /** pump i sells tanks[pumpTank[i]]'s product */
  pumpTank: number[];
  /** pump i's totalizer at SIM_EPOCH, litres */
  baseTotalizer: number[];
  /** this station's trade against a busy urban station's */
  pace: number;
  /** litres per tank not sold while dispensing was stopped (a live command; a restart forgets it) */
  unsold: number[];
  /** `unsold` when the shift began */
  unsoldAtShift: number[];
  shift: 1 | 2 | 3;
  /** when the next suspiciously small fill happens */
  smallFillAt: number;
  /** dispensing stopped by command (emergency stop) */
  stopped: boolean;
}

export const shiftOf = (t: number): 1 | 2 | 3 => {
  const h = localHour(t);
  return h >= 6 && h < 14 ? 1 : h >= 14 && h < 22 ? 2 : 3;
};

/** The start of the shift containing `t` (06:00, 14:00 or 22:00 local). */
export function shiftStart(t: number): number {
  const h = localHour(t);
  const back = h >= 22 ? h - 22 : h < 6 ? h + 2 : h >= 14 ? h - 14 : h - 6;
  return t - back * HOUR;
}

/** Litres of a product a station has sold from SIM_EPOCH to `t` (its sales are a closed-form integral: replay and live join). */
export const soldLitres = (product: FuelProduct, pace: number, t: number): number =>
  PEAK_LPH[product] * pace * FUEL_TRADE.integral(t);

/** What each product sold since the shift began, at the state's own time (a counter restarting every shift). */
export function shiftTotals(s: FuelState): Record<string, number> {
  const since = shiftStart(s.t);
  return Object.fromEntries(
    s.tanks.map((k, ti) => {
      const sold = soldLitres(k.product, s.pace, s.t) - soldLitres(k.product, s.pace, since);
      return [k.product, round(Math.max(0, sold - (s.unsold[ti]! - s.unsoldAtShift[ti]!)), 1)];
    }),
  );
}

/** Pump i's totalizer at `t`. */
export function totalizerOf(s: FuelState, i: number, t: number): number {
  const tank = s.pumpTank[i]!;
  const nozzles = s.pumpTank.filter((k) => k === tank).length;
  return s.baseTotalizer[i]! + (soldLitres(s.tanks[tank]!.product, s.pace, t) - s.unsold[tank]!) / nozzles;
}

export const fuelProfile: Profile<FuelState> = {
  name: 'fuel',
  label: 'SPBU',
  init(rng, { startMs }) {
    // every station sells Pertalite, Pertamax and Biosolar; some also Premium and Pertamax Turbo
    const products = FUEL_PRODUCTS.filter(
      (p) => p === 'Pertalite' || p === 'Pertamax' || p === 'Biosolar' || rng.chance(0.5),
    );
    const tanks: Tank[] = products.map((product) => {
      const capacity = rng.pick([15000, 20000, 30000]);
      return { product, capacity, volume: round(capacity * rng.range(0.4, 0.9), 1), fill: 0, deliveryAt: null };
    });
    const pumpTank: number[] = [];
    tanks.forEach((tank, i) => {
      const nozzles = tank.product === 'Pertalite' ? rng.int(2, 4) : rng.int(1, 2);
      for (let n = 0; n < nozzles; n++) pumpTank.push(i);
    });
    const baseTotalizer = pumpTank.map(() => round(rng.range(100_000, 2_000_000), 2));
    const smallFillAt = startMs + rng.range(1, 10) * HOUR;
    return {
      t: startMs,
      tanks,
      pumpTank,
      baseTotalizer,
      pace: rng.range(0.6, 1.2),
      unsold: tanks.map(() => 0),
      unsoldAtShift: tanks.map(() => 0),
      shift: shiftOf(startMs),
      smallFillAt,
      stopped: false,
    };
  },
  step(s, dtMs, rng: Rng) {
    const t = s.t + dtMs;
    const events: ProfileEvent[] = [];
    const tanks = s.tanks.map((k) => ({ ...k, fill: 0 }));
    const unsold = [...s.unsold];
    // sales: each product's litres since the last step, drawn from its tank (the pump cannot draw the last 200 L, the
    // sump); while dispensing is stopped they are not sold (and not counted)
    tanks.forEach((tank, ti) => {
      const litres = soldLitres(tank.product, s.pace, t) - soldLitres(tank.product, s.pace, s.t);
      if (s.stopped) unsold[ti] = unsold[ti]! + litres;
      else tank.volume = Math.max(Math.min(tank.volume, 200), tank.volume - litres);
    });
    let unsoldAtShift = s.unsoldAtShift;
    const shift = shiftOf(t);
    if (shift !== s.shift) {
      events.push({ kind: 'shift_end', at: t, shift: s.shift, totals: shiftTotals(s) });
      unsoldAtShift = [...unsold];
    }
    // deliveries: ordered below 30 %, a truck arrives 1-4 hours later with whole compartments
    for (const tank of tanks) {
      if (tank.deliveryAt === null && tank.volume < tank.capacity * 0.3) tank.deliveryAt = t + rng.range(1, 4) * HOUR;
      if (tank.deliveryAt !== null && t >= tank.deliveryAt) {
        const room = tank.capacity * 0.95 - tank.volume;
        const litres = Math.max(COMPARTMENT_L, Math.floor(room / COMPARTMENT_L) * COMPARTMENT_L);
        const delivered = Math.min(litres, room);
        events.push({
          kind: 'refill',
          at: t,
          product: tank.product,
          litres: round(delivered, 1),
          before: round(tank.volume, 1),
          after: round(tank.volume + delivered, 1),
        });
        tank.volume += delivered;
        tank.fill += delivered;
        tank.deliveryAt = null;
      }
    }
    // the fraud hint: a recorded fill too small for any truck
    let smallFillAt = s.smallFillAt;
    if (t >= smallFillAt) {
      const tank = rng.pick(tanks);
      const litres = round(rng.range(60, FUEL_FILL_ALERT_LITRES - 1), 1);
      const room = tank.capacity - tank.volume;
      if (room > litres) {
        tank.volume += litres;
        tank.fill += litres;
        events.push({ kind: 'small_fill', at: t, product: tank.product, litres });
      }
      smallFillAt = t + rng.range(12, 36) * HOUR;
    }
    return { state: { ...s, t, tanks, unsold, unsoldAtShift, shift, smallFillAt }, events };
  },
  reading(s) {
    return {
      data: {
        tank: {
          data: Object.fromEntries(
            s.tanks.map((k) => [
              k.product,
              { volume: round(k.volume, 1), fill: round(k.fill, 1), level: round((100 * k.volume) / k.capacity, 1) },
            ]),
          ),
        },
        pump: {
          data: {
            totalizer: Object.fromEntries(s.pumpTank.map((_, i) => [`pump${i + 1}`, round(totalizerOf(s, i, s.t), 2)])),
            shift_total: shiftTotals(s),
            shift: s.shift,
          },
        },
      },
      states: {
        dispensing: s.stopped ? 'stopped' : 'running',
        ...Object.fromEntries(s.pumpTank.map((k, i) => [`pump${i + 1}`, s.tanks[k]!.product])),
      },
    };
  },
  command(s, cmd) {
    if (cmd.param !== 'dispensing') return { state: s, ok: false, code: -10 };
    return { state: { ...s, stopped: cmd.value === 'stopped' || cmd.value === false || cmd.value === 0 }, ok: true };
  },
};
