import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralFrom, freePort } from './free-port.js';

describe('freePort', () => {
  it('hands out distinct loopback ports below the kernel ephemeral range, each one bindable', async () => {
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(ephemeralFrom());
    }
    const srv = net.createServer();
    await new Promise<void>((resolve) => srv.listen(ports[0], '127.0.0.1', resolve));
    expect((srv.address() as net.AddressInfo).port).toBe(ports[0]);
    await new Promise((r) => srv.close(r));
  });
  it('reads where the ephemeral range starts (outgoing connections take their local ports there)', () => {
    const from = ephemeralFrom();
    expect(from).toBeGreaterThan(10_064);
    expect(from).toBeLessThanOrEqual(65_535);
  });
});
