// Seeded randomness for the fleet: sfc32 (small, fast, passes PractRand) seeded through a string hash, so
// "seed 42, device 17, profile fuel" always draws the same numbers on every machine and Node version.

export interface Rng {
  /** uniform in [0, 1) */
  next(): number;
  /** uniform in [min, max) */
  range(min: number, max: number): number;
  /** integer in [min, max] */
  int(min: number, max: number): number;
  /** standard normal (Box–Muller), scaled */
  normal(mean?: number, sd?: number): number;
  /** true with probability p */
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** a derived, independent generator (for a sub-object that must not shift when others draw more) */
  fork(label: string): Rng;
}

/** cyrb128: a 128-bit string hash, four 32-bit words to seed sfc32. */
export function hash128(text: string): [number, number, number, number] {
  let h1 = 1779033703,
    h2 = 3144134277,
    h3 = 1013904242,
    h4 = 2773480762;
  for (let i = 0; i < text.length; i++) {
    const k = text.charCodeAt(i);
    h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
    h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
    h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
    h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
  }
  h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
  h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
  h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
  h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
  h1 ^= h2 ^ h3 ^ h4;
  h2 ^= h1;
  h3 ^= h1;
  h4 ^= h1;
  return [h1 >>> 0, h2 >>> 0, h3 >>> 0, h4 >>> 0];
}

/** Hex digits derived from a text (device UIDs, DevEUIs): stable across runs. */
export function hexOf(text: string, digits: number): string {
  let out = '';
  for (let round = 0; out.length < digits; round++)
    out += hash128(`${text}#${round}`)
      .map((w) => w.toString(16).padStart(8, '0'))
      .join('');
  return out.slice(0, digits).toUpperCase();
}

export function createRng(seed: string | number): Rng {
  let [a, b, c, d] = hash128(String(seed));
  const sfc32 = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  // the first draws of sfc32 are still close to the seed words
  for (let i = 0; i < 12; i++) sfc32();
  const rng: Rng = {
    next: sfc32,
    range: (min, max) => min + (max - min) * sfc32(),
    int: (min, max) => min + Math.floor((max - min + 1) * sfc32()),
    normal(mean = 0, sd = 1) {
      const u = 1 - sfc32();
      const v = sfc32();
      return mean + sd * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
    chance: (p) => sfc32() < p,
    pick: (items) => items[Math.floor(items.length * sfc32())]!,
    fork: (label) => createRng(`${seed}/${label}`),
  };
  return rng;
}

/** Rounds to `digits` decimals (what a real meter's register resolution gives). */
export const round = (v: number, digits = 2): number => {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
};

export const clamp = (v: number, min: number, max: number): number => (v < min ? min : v > max ? max : v);
