// Environment sensor in a tropical city: temperature with the day's swing, humidity moving the other way, barometric
// pressure with its twice-daily tide, and a battery that drains slowly (LoRa nodes report it).
import { clamp, round } from '../rng.js';
import { localHour, type Profile } from './types.js';

export interface EnvironmentState {
  t: number;
  /** site offset from the city mean, °C (indoor, shaded, rooftop) */
  offset: number;
  weather: number;
  temperature: number;
  humidity: number;
  pressure: number;
  battery: number;
  /** reporting interval set by command, s */
  interval: number;
}

const diurnalTemp = (t: number) => 28.5 + 3.5 * Math.sin(((localHour(t) - 9) / 24) * 2 * Math.PI);

export const environmentProfile: Profile<EnvironmentState> = {
  name: 'environment',
  label: 'Sensor Lingkungan',
  init(rng, { startMs }) {
    const offset = rng.range(-3, 2);
    return {
      t: startMs,
      offset,
      weather: 0,
      temperature: diurnalTemp(startMs) + offset,
      humidity: 75,
      pressure: 1010,
      battery: rng.range(70, 100),
      interval: 60,
    };
  },
  step(s, dtMs, rng) {
    const t = s.t + dtMs;
    const k = Math.min(1, dtMs / 600_000);
    // a slow weather state: rain cools and wets
    const weather = clamp(s.weather * (1 - k * 0.2) + rng.normal(0, 0.08) * Math.sqrt(k), -1, 1);
    const temperature =
      s.temperature + (diurnalTemp(t) + s.offset - 2 * Math.max(0, weather) - s.temperature) * k + rng.normal(0, 0.05);
    const humidity = clamp(
      s.humidity + (78 - (temperature - 28) * 4 + 15 * Math.max(0, weather) - s.humidity) * k + rng.normal(0, 0.3),
      35,
      99,
    );
    const tide = 1.2 * Math.sin(((localHour(t) - 10) / 12) * 2 * Math.PI);
    const pressure = s.pressure + (1010 + tide - 3 * weather - s.pressure) * k + rng.normal(0, 0.03);
    const battery = Math.max(0, s.battery - (dtMs / (90 * 24 * 3_600_000)) * 100);
    return { state: { ...s, t, weather, temperature, humidity, pressure, battery }, events: [] };
  },
  reading(s) {
    return {
      data: {
        env: {
          data: {
            temperature: round(s.temperature, 2),
            humidity: round(s.humidity, 1),
            pressure: round(s.pressure, 1),
            battery: round(s.battery, 0),
          },
        },
      },
      states: { interval: s.interval },
    };
  },
  command(s, cmd) {
    if (cmd.param !== 'interval' || typeof cmd.value !== 'number' || cmd.value < 10 || cmd.value > 3600)
      return { state: s, ok: false, code: -10 };
    return { state: { ...s, interval: cmd.value }, ok: true };
  },
};
