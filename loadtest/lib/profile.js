// The load profile of cards.js read from the environment (plain functions, no k6 module, so node tests them too):
// defaults a 2-core machine running the gateway and k6 side by side meets; the heavy profile is one line of variables.

/** The default ramp: 1 → 4 → 8 → 0 VUs over 60 s. */
export const DEFAULT_STAGES = '15s:4,30s:8,15s:0';

/** "20s:20,40s:50,20s:0" → k6 stages; a malformed entry stops the run with the variable's name. */
export function parseStages(text, name = 'RAMP_STAGES') {
  return String(text)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((entry) => {
      const m = /^(\d+(?:\.\d+)?(?:ms|s|m|h))\s*:\s*(\d+)$/.exec(entry);
      if (!m) throw new Error(`${name}: "${entry}" is not <duration>:<VUs> (e.g. 20s:20)`);
      return { duration: m[1], target: Number(m[2]) };
    });
}

/** k6 duration text ("1m", "90s", "1.5m", "500ms", "1h") → seconds. */
export function seconds(duration, name = 'DURATION') {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(String(duration).trim());
  if (!m) throw new Error(`${name}: "${duration}" is not a duration such as 90s or 1m`);
  const factor = { ms: 0.001, s: 1, m: 60, h: 3600 }[m[2]];
  return Number(m[1]) * factor;
}

/** A non-negative number from the environment, or the default; anything else stops the run naming the variable. */
export function numberOf(env, name, fallback) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}: "${raw}" is not a non-negative number`);
  return n;
}

/**
 * The whole profile of cards.js. The ramping scenario is a closed loop: its latency is VUs ÷ throughput by
 * construction, so its VUs pause `RAMP_SLEEP` seconds between requests (viewers, not a flood); the constant-arrival
 * scenario starts 5 s after the ramp ends.
 */
export function cardsProfile(env) {
  const stages = parseStages(env.RAMP_STAGES || DEFAULT_STAGES);
  const rampSeconds = stages.reduce((sum, s) => sum + seconds(s.duration, 'RAMP_STAGES'), 0);
  const rate = numberOf(env, 'RATE', 100);
  const preAllocatedVUs = numberOf(env, 'PRE_VUS', 10);
  const duration = env.DURATION || '1m';
  seconds(duration, 'DURATION');
  return {
    stages,
    startVUs: numberOf(env, 'RAMP_START_VUS', 1),
    sleep: numberOf(env, 'RAMP_SLEEP', 0.1),
    rate,
    duration,
    preAllocatedVUs,
    maxVUs: Math.max(preAllocatedVUs, numberOf(env, 'MAX_VUS', 100)),
    constantStart: `${Math.ceil(rampSeconds) + 5}s`,
  };
}
