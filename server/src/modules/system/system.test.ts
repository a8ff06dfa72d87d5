import { describe, expect, it } from 'vitest';
import type { Realtime } from '../../platform/realtime/types.js';
import { createSystemStatus, SYSTEM_ROOM } from './system.js';

function fakeRealtime() {
  const emitted: Array<{ room: string; event: string; payload: unknown }> = [];
  const channels = new Map<string, { join(caller: unknown, params: unknown): string | Promise<string> }>();
  const r = {
    channel: (name: string, def: { join(caller: unknown, params: unknown): string }) => void channels.set(name, def),
    emit: (room: string, event: string, payload: unknown) => void emitted.push({ room, event, payload }),
  } as unknown as Realtime;
  return { r, emitted, channels };
}

describe('the system status', () => {
  it('says when the storage fails and since when, pushes each change once, and says when it is ok again', async () => {
    let failing = false;
    let clock = 1_000;
    const s = createSystemStatus({ storageFailing: () => failing, now: () => clock, everyMs: 10 });
    const { r, emitted, channels } = fakeRealtime();
    s.attachRealtime(r);
    try {
      expect(s.status()).toEqual({ storage: 'ok', since: null });
      expect(await channels.get('system')!.join({}, {})).toBe(SYSTEM_ROOM);
      failing = true;
      clock = 2_000;
      await new Promise((done) => setTimeout(done, 40));
      expect(emitted).toEqual([{ room: 'system', event: 'status', payload: { storage: 'failing', since: 2_000 } }]);
      clock = 3_000;
      expect(s.status()).toEqual({ storage: 'failing', since: 2_000 });
      failing = false;
      expect(s.status()).toEqual({ storage: 'ok', since: null });
      await new Promise((done) => setTimeout(done, 40));
      expect(emitted.map((e) => e.payload)).toEqual([
        { storage: 'failing', since: 2_000 },
        { storage: 'ok', since: null },
      ]);
    } finally {
      s.close();
    }
  });
});
