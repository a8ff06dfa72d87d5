// The one behaviour both buses promise (docs/conventions.md "The bus"): run by bus.test.ts against the memory bus and a
// real NATS.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '../testing/until.js';
import { BusNoRespondersError, BusRemoteError, BusTimeoutError, type Bus } from './types.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function busContractSuite(name: string, makeBus: () => Promise<Bus>, opts: { skip?: boolean } = {}) {
  describe.skipIf(opts.skip)(`bus contract: ${name}`, () => {
    let bus: Bus;
    beforeEach(async () => {
      bus = await makeBus();
    });
    afterEach(async () => {
      await bus.close();
    });

    it('delivers by subject with * matching one token and > the rest', async () => {
      const got: Record<string, string[]> = { exact: [], star: [], tail: [], other: [] };
      bus.subscribe('tele.1.dev', (m) => void got.exact.push(m.subject));
      bus.subscribe('tele.*.dev', (m) => void got.star.push(m.subject));
      bus.subscribe('tele.>', (m) => void got.tail.push(m.subject));
      bus.subscribe('cmd.>', (m) => void got.other.push(m.subject));
      await bus.flush();
      for (const s of ['tele.1.dev', 'tele.2.dev', 'tele.1.dev.extra', 'tele']) bus.publish(s, { n: 1 });
      await bus.flush();
      await eventually(() => expect(got.tail).toEqual(['tele.1.dev', 'tele.2.dev', 'tele.1.dev.extra']));
      expect(got.exact).toEqual(['tele.1.dev']);
      expect(got.star).toEqual(['tele.1.dev', 'tele.2.dev']);
      expect(got.other).toEqual([]);
    });

    it('carries JSON data unchanged', async () => {
      const seen: unknown[] = [];
      bus.subscribe('data.x', (m) => void seen.push(m.data));
      await bus.flush();
      const payload = { a: 1, b: 'teks', c: [true, null, 2.5], d: { e: 'f' } };
      bus.publish('data.x', payload);
      await eventually(() => expect(seen).toEqual([payload]));
    });

    it('rejects invalid subjects at the call', () => {
      expect(() => bus.publish('a.*', 1)).toThrow();
      expect(() => bus.publish('a..b', 1)).toThrow();
      expect(() => bus.publish('', 1)).toThrow();
      expect(() => bus.subscribe('a.>.b', () => undefined)).toThrow();
    });

    it('gives each message to one member of a queue group, round-robin, and to every plain subscriber', async () => {
      const members = [0, 0, 0];
      let plain = 0;
      members.forEach((_, i) => bus.subscribe('work.job', () => void members[i]++, { queue: 'workers' }));
      bus.subscribe('work.job', () => void plain++);
      await bus.flush();
      for (let i = 0; i < 30; i++) bus.publish('work.job', i);
      await eventually(() => expect(plain).toBe(30));
      await eventually(() => expect(members.reduce((a, b) => a + b)).toBe(30));
      // NATS picks members at random, the memory bus in turn: both must spread the work
      expect(members.filter((n) => n > 0).length).toBeGreaterThanOrEqual(2);
    });

    it('answers a request with the value a handler returns (sync or async)', async () => {
      bus.subscribe<{ x: number }>('math.double', (m) => m.data.x * 2);
      bus.subscribe<{ x: number }>('math.slow', async (m) => {
        await sleep(20);
        return { y: m.data.x + 1 };
      });
      await bus.flush();
      await expect(bus.request('math.double', { x: 21 })).resolves.toBe(42);
      await expect(bus.request('math.slow', { x: 1 })).resolves.toEqual({ y: 2 });
    });

    it('answers a request once when a queue group serves it', async () => {
      let calls = 0;
      for (let i = 0; i < 3; i++) bus.subscribe('svc.echo', (m) => (calls++, m.data), { queue: 'svc' });
      await bus.flush();
      await expect(bus.request('svc.echo', 'hai')).resolves.toBe('hai');
      expect(calls).toBe(1);
    });

    it('rejects with BusTimeoutError when nobody answers in time', async () => {
      bus.subscribe('quiet.svc', () => undefined);
      await bus.flush();
      const started = Date.now();
      await expect(bus.request('quiet.svc', {}, { timeoutMs: 100 })).rejects.toBeInstanceOf(BusTimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(90);
    });

    it('rejects with BusNoRespondersError when nobody listens', async () => {
      const started = Date.now();
      await expect(bus.request('nobody.here', {}, { timeoutMs: 2000 })).rejects.toBeInstanceOf(BusNoRespondersError);
      expect(Date.now() - started).toBeLessThan(1000);
    });

    it('rejects with BusRemoteError when the responder throws, instead of timing out', async () => {
      bus.subscribe('broken.svc', () => {
        throw new Error('rusak');
      });
      await bus.flush();
      await expect(bus.request('broken.svc', {}, { timeoutMs: 2000 })).rejects.toThrow(BusRemoteError);
    });

    it('stops delivering after unsubscribe', async () => {
      const seen: number[] = [];
      const sub = bus.subscribe<number>('unsub.x', (m) => void seen.push(m.data));
      await bus.flush();
      bus.publish('unsub.x', 1);
      await eventually(() => expect(seen).toEqual([1]));
      sub.unsubscribe();
      sub.unsubscribe(); // twice is harmless
      await bus.flush();
      bus.publish('unsub.x', 2);
      await bus.flush();
      await sleep(50);
      expect(seen).toEqual([1]);
    });

    it('keeps the publish order per subject', async () => {
      const seen: number[] = [];
      bus.subscribe<number>('order.x', (m) => void seen.push(m.data));
      await bus.flush();
      for (let i = 0; i < 500; i++) bus.publish('order.x', i);
      await eventually(() => expect(seen.length).toBe(500));
      expect(seen).toEqual([...Array(500).keys()]);
    });

    it('isolates a throwing or rejecting handler from the publisher and the other subscribers', async () => {
      const seen: string[] = [];
      bus.subscribe('boom.x', () => {
        throw new Error('handler meledak');
      });
      bus.subscribe('boom.x', async () => {
        throw new Error('async handler meledak');
      });
      bus.subscribe<string>('boom.x', (m) => void seen.push(m.data));
      await bus.flush();
      expect(() => bus.publish('boom.x', 'a')).not.toThrow();
      bus.publish('boom.x', 'b');
      await eventually(() => expect(seen).toEqual(['a', 'b']));
    });

    it('delivers what was published before close, then drops publishes and refuses requests', async () => {
      const seen: number[] = [];
      bus.subscribe<number>('close.x', (m) => void seen.push(m.data));
      await bus.flush();
      for (let i = 0; i < 10; i++) bus.publish('close.x', i);
      await bus.close();
      expect(seen.length).toBe(10);
      expect(() => bus.publish('close.x', 99)).not.toThrow();
      await expect(bus.request('close.x', 1, { timeoutMs: 100 })).rejects.toThrow();
      await bus.close(); // idempotent
    });
  });
}
