// The hub's transport over socket.io: subscribe answered through the acknowledgement, and which connections make the
// hub join again (a reconnect; the first connection only when a subscribe buffered before it timed out).
import { describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import { transportOf } from './socket.js';

function fakeSocket() {
  const handlers = new Map<string, Set<(...a: any[]) => void>>();
  const acks: { body: any; ack: (err: unknown, answer?: unknown) => void }[] = [];
  const s = {
    connected: false,
    acks,
    timeout: () => ({
      emit: (_event: string, body: unknown, ack: (err: unknown, answer?: unknown) => void) =>
        void acks.push({ body, ack }),
    }),
    emit: () => true,
    on: (event: string, fn: (...a: any[]) => void) => (
      handlers.has(event) || handlers.set(event, new Set()),
      handlers.get(event)!.add(fn),
      s
    ),
    off: (event: string, fn: (...a: any[]) => void) => (handlers.get(event)?.delete(fn), s),
    connect: () => {
      s.connected = true;
      handlers.get('connect')?.forEach((h) => h());
    },
  };
  return s;
}
const asSocket = (s: ReturnType<typeof fakeSocket>) => s as unknown as Socket;

describe('live transport over socket.io', () => {
  it('answers the room of an accepted subscribe and the envelope of a refused one', async () => {
    const s = fakeSocket();
    const t = transportOf(asSocket(s));
    const ok = t.subscribe('devices', {});
    const refused = t.subscribe('device-data', { device_id: 9 });
    s.acks[0]!.ack(null, { response_result: 0, room: 'devices.1' });
    s.acks[1]!.ack(null, { response_result: -11, message: 'Data tidak ditemukan' });
    expect(await ok).toBe('devices.1');
    await expect(refused).rejects.toEqual({ response_result: -11, message: 'Data tidak ditemukan' });
  });

  it('joins again on a reconnect, not on the first connection that carries the buffered subscribes', () => {
    const s = fakeSocket();
    const t = transportOf(asSocket(s));
    let rejoins = 0;
    t.onReconnect(() => rejoins++);
    void t.subscribe('devices', {});
    s.connect();
    expect(rejoins).toBe(0);
    s.connect();
    expect(rejoins).toBe(1);
  });

  it('joins again on the first connection when a subscribe buffered before it timed out', async () => {
    const s = fakeSocket();
    const t = transportOf(asSocket(s));
    let rejoins = 0;
    t.onReconnect(() => rejoins++);
    const first = t.subscribe('devices', {});
    s.acks[0]!.ack(new Error('operation has timed out'));
    await expect(first).rejects.toEqual({ response_result: -99, message: 'timeout' });
    s.connect();
    expect(rejoins).toBe(1);
  });
});
