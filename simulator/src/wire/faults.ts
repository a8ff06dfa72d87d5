// The occasional broken frame a real fleet sends (`--faults`): cut-off JSON, the wrong shape, an impossible value.
// Always on the device's own topic, so the broker keeps the connection and the gateway's adapter has to reject it.
import type { Rng } from '../rng.js';
import type { Frame } from './types.js';

export const MALFORMATIONS = ['truncated', 'not_json', 'wrong_shape', 'bad_value'] as const;
export type Malformation = (typeof MALFORMATIONS)[number];

export function malformed(frame: Frame, kind: Malformation): Frame {
  const text = frame.payload.toString();
  switch (kind) {
    case 'truncated':
      return { ...frame, payload: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
    case 'not_json':
      return { ...frame, payload: Buffer.from([0xde, 0xad, 0xbe, 0xef, 0x00, 0x7f]) };
    case 'wrong_shape':
      return { ...frame, payload: JSON.stringify([text.length, 'reading']) };
    case 'bad_value':
      // what a firmware with a broken clock writes
      return {
        ...frame,
        payload: frame.topic.startsWith('d/')
          ? JSON.stringify({ _ts: 'yesterday', env: { data: { temperature: 1 } } })
          : JSON.stringify({ ts: 'yesterday' }),
      };
  }
}

export const pickMalformation = (rng: Rng): Malformation => rng.pick(MALFORMATIONS);
