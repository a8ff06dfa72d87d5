// GPS tracker on a delivery van looping a route through Jakarta (map and coordinate cards): position along the route,
// speed that varies with traffic, parked at night, heading, odometer. The distance is a function of time alone
// (profiles/clock.ts), so the position and the odometer continue across a replayed past, the live run and a restart.
import { clamp, round } from '../rng.js';
import { WeeklyRate } from './clock.js';
import { activityAt, type Profile } from './types.js';

/** A loop through central Jakarta: [latitude, longitude]. */
export const JAKARTA_ROUTE: readonly [number, number][] = [
  [-6.1754, 106.8272], // Monas
  [-6.1862, 106.8229],
  [-6.1957, 106.823], // Bundaran HI
  [-6.2088, 106.8219],
  [-6.2249, 106.8097], // Senayan
  [-6.2297, 106.7997],
  [-6.2416, 106.7993], // Blok M
  [-6.2384, 106.8272],
  [-6.2253, 106.8456], // Kuningan
  [-6.2088, 106.8456],
  [-6.1933, 106.8424], // Cikini
  [-6.1804, 106.8339],
];

const R_EARTH_KM = 6371;
const rad = (d: number) => (d * Math.PI) / 180;
export function distanceKm(a: readonly [number, number], b: readonly [number, number]): number {
  const dLat = rad(b[0] - a[0]);
  const dLon = rad(b[1] - a[1]);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a[0])) * Math.cos(rad(b[0])) * Math.sin(dLon / 2) ** 2;
  return 2 * R_EARTH_KM * Math.asin(Math.sqrt(h));
}
const LEGS = JAKARTA_ROUTE.map((p, i) => distanceKm(p, JAKARTA_ROUTE[(i + 1) % JAKARTA_ROUTE.length]!));
const ROUTE_KM = LEGS.reduce((a, b) => a + b, 0);

/** Position and heading at `km` along the loop. */
export function pointAt(km: number): { lat: number; lon: number; heading: number } {
  let d = ((km % ROUTE_KM) + ROUTE_KM) % ROUTE_KM;
  let i = 0;
  while (d > LEGS[i]! && i < LEGS.length - 1) d -= LEGS[i++]!;
  const a = JAKARTA_ROUTE[i]!;
  const b = JAKARTA_ROUTE[(i + 1) % JAKARTA_ROUTE.length]!;
  const f = LEGS[i]! > 0 ? d / LEGS[i]! : 0;
  const heading = (Math.atan2(rad(b[1] - a[1]) * Math.cos(rad(a[0])), rad(b[0] - a[0])) * 180) / Math.PI;
  return { lat: a[0] + (b[0] - a[0]) * f, lon: a[1] + (b[1] - a[1]) * f, heading: (heading + 360) % 360 };
}

/**
 * The vans' average speed over the week, km/h: on the road 06:00–21:00 Monday to Saturday and 08:00–16:00 on Sundays
 * at half the rounds (off for lunch 12–13, parked at the depot at night), slower when the city is busy, with stops
 * for deliveries and lights.
 */
export const VAN_SPEED = new WeeklyRate((weekday, hour) => {
  const sunday = weekday === 6;
  if (hour < (sunday ? 8 : 6) || hour >= (sunday ? 16 : 21) || (hour >= 12 && hour < 13)) return 0;
  return (sunday ? 0.3 : 0.6) * (55 - 35 * activityAt(hour));
});

export interface GpsState {
  t: number;
  /** the odometer at SIM_EPOCH, km (vans start spread along the route) */
  base: number;
  /** this van's pace against the fleet's (its driver, its district) */
  pace: number;
  /** km travelled along the loop (odometer since install) */
  km: number;
  speed: number;
}

/** The odometer at `t`: the distance is the closed-form integral of the week's speed, so replay and live join. */
export const gpsKm = (s: Pick<GpsState, 'base' | 'pace'>, t: number): number => s.base + s.pace * VAN_SPEED.integral(t);

export const gpsProfile: Profile<GpsState> = {
  name: 'gps',
  label: 'Armada',
  init(rng, { startMs }) {
    const base = rng.range(0, ROUTE_KM) + rng.int(0, 200) * ROUTE_KM;
    const pace = rng.range(0.85, 1.15);
    return { t: startMs, base, pace, km: gpsKm({ base, pace }, startMs), speed: pace * VAN_SPEED.at(startMs) };
  },
  step(s, dtMs, rng) {
    const t = s.t + dtMs;
    const km = gpsKm(s, t);
    const average = s.pace * VAN_SPEED.at(t);
    // the speedometer swings around the average pace (traffic), zero when parked
    const speed = average > 0 ? clamp(average * (1 + rng.normal(0, 0.25)), 0, 80) : 0;
    const laps = Math.floor(km / ROUTE_KM) - Math.floor(s.km / ROUTE_KM);
    const events = laps > 0 ? [{ kind: 'depot', at: t }] : [];
    return { state: { ...s, t, km, speed }, events };
  },
  reading(s) {
    const p = pointAt(s.km);
    return {
      data: {
        gps: {
          data: {
            latitude: round(p.lat, 6),
            longitude: round(p.lon, 6),
            speed: round(s.speed, 1),
            heading: round(p.heading, 0),
            odometer: round(s.km, 2),
          },
        },
      },
      states: { moving: s.speed > 1 },
    };
  },
};
