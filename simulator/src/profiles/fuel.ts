// A fuel station (SPBU): one underground tank per product whose litres fall with the pumps' sales and jump when a
// tank truck delivers, now and then a "fill" below 300 L (the fraud hint of the fuel tooltip), pump totalizers and
// per-shift totals (three shifts: 06-14, 14-22, 22-06 local time). On the wire each product is one param of
// `tank/data` with subparams `volume`, `fill`, `level`: the fuel tooltip's remaining litres and fill of one product
// come from one graph query (subparam ['volume', 'fill']).
import { FUEL_FILL_ALERT_LITRES, FUEL_PRODUCTS } from '@sentra/contracts';
import { round, type Rng } from '../rng.js';
import { dayActivity, localHour, type Profile, type ProfileEvent } from './types.js';

export type FuelProduct = (typeof FUEL_PRODUCTS)[number];

/** Peak-hour sales of a busy urban station, litres per hour per product. */
const PEAK_LPH: Record<FuelProduct, number> = {
  Premium: 160,
  Pertamax: 260,
  Pertalite: 900,
  Biosolar: 320,
  'Pertamax Turbo': 60,
};
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
  totalizer: number[];
  shift: 1 | 2 | 3;
  shiftTotal: Partial<Record<FuelProduct, number>>;
  /** when the next suspiciously small fill happens */
  smallFillAt: number;
  /** dispensing stopped by command (emergency stop) */
  stopped: boolean;
}

export const shiftOf = (t: number): 1 | 2 | 3 => {
  const h = localHour(t);
  return h >= 6 && h < 14 ? 1 : h >= 14 && h < 22 ? 2 : 3;
};

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
    return {
      t: startMs,
      tanks,
      pumpTank,
      totalizer: pumpTank.map(() => round(rng.range(100_000, 2_000_000), 2)),
      shift: shiftOf(startMs),
      shiftTotal: {},
      smallFillAt: startMs + rng.range(1, 10) * HOUR,
      stopped: false,
    };
  },
  step(s, dtMs, rng: Rng) {
    const t = s.t + dtMs;
    const events: ProfileEvent[] = [];
    const tanks = s.tanks.map((k) => ({ ...k, fill: 0 }));
    const totalizer = [...s.totalizer];
    let shiftTotal = { ...s.shiftTotal };
    const shift = shiftOf(t);
    if (shift !== s.shift) {
      events.push({ kind: 'shift_end', at: t, shift: s.shift, totals: s.shiftTotal });
      shiftTotal = {};
    }
    // sales: each product's hourly rate shaped by the day, shared by its nozzles
    if (!s.stopped) {
      tanks.forEach((tank, ti) => {
        const pumps = s.pumpTank.flatMap((k, i) => (k === ti ? [i] : []));
        const wanted = PEAK_LPH[tank.product] * dayActivity(t) * (dtMs / HOUR) * Math.max(0, rng.normal(1, 0.25));
        const sold = Math.min(wanted, Math.max(0, tank.volume - 200)); // the pump cannot draw the last 200 L (sump)
        if (sold <= 0 || pumps.length === 0) return;
        tank.volume -= sold;
        pumps.forEach((p) => (totalizer[p] = totalizer[p]! + sold / pumps.length));
        shiftTotal[tank.product] = (shiftTotal[tank.product] ?? 0) + sold;
      });
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
    return { state: { ...s, t, tanks, totalizer, shift, shiftTotal, smallFillAt }, events };
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
            totalizer: Object.fromEntries(s.totalizer.map((v, i) => [`pump${i + 1}`, round(v, 2)])),
            shift_total: Object.fromEntries(s.tanks.map((k) => [k.product, round(s.shiftTotal[k.product] ?? 0, 1)])),
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
