// GPS tracker on a delivery van looping a route through Jakarta (map and coordinate cards): position along the route,
// speed that varies with traffic and stops at the depot, heading, odometer.
import { clamp, round } from '../rng.js';
import { dayActivity, type Profile } from './types.js';

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

export interface GpsState {
  t: number;
  /** km travelled along the loop (odometer since install) */
  km: number;
  speed: number;
  /** parked at the depot until */
  parkedUntil: number;
}

export const gpsProfile: Profile<GpsState> = {
  name: 'gps',
  label: 'Armada',
  init(rng, { startMs }) {
    // vans start spread along the route
    return { t: startMs, km: rng.range(0, ROUTE_KM) + rng.int(0, 200) * ROUTE_KM, speed: 0, parkedUntil: startMs };
  },
  step(s, dtMs, rng) {
    const t = s.t + dtMs;
    if (t < s.parkedUntil) return { state: { ...s, t, speed: 0 }, events: [] };
    // traffic: slower when the city is busy
    const free = 55 - 35 * dayActivity(t);
    const speed = clamp(s.speed + (free - s.speed) * Math.min(1, dtMs / 60_000) + rng.normal(0, 4), 0, 80);
    const km = s.km + (speed * dtMs) / 3_600_000;
    const lap = Math.floor(km / ROUTE_KM) > Math.floor(s.km / ROUTE_KM);
    const events = lap ? [{ kind: 'depot', at: t }] : [];
    return {
      state: { t, km, speed: lap ? 0 : speed, parkedUntil: lap ? t + rng.range(5, 20) * 60_000 : s.parkedUntil },
      events,
    };
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
