// A loopback port for a process started later (nats-server, PostgreSQL, a gateway in a child process, HAProxy), for
// tests and benchmarks. Binding port 0 and releasing it hands out a port of the kernel's ephemeral range, which the
// kernel also gives every outgoing connection as its local port: between the choice and the child's bind, a
// connection to PostgreSQL or NATS could take it, and the child failed with EADDRINUSE (a chaos run's gateway, once).
// So the port is chosen below that range, at random (parallel test processes rarely meet), and checked by binding it.
// Why not get-port: it walks a given range in order, so two test processes choosing at once pick the same first port.
import fs from 'node:fs';
import net from 'node:net';

/** the lowest port chosen; below it live the services a machine runs */
const LOWEST = 10_000;
/** the ephemeral range's start when /proc does not say (Linux's default) */
const EPHEMERAL_FROM = 32_768;
const ATTEMPTS = 64;

/** where the kernel's ephemeral range starts (net.ipv4.ip_local_port_range) */
export function ephemeralFrom(): number {
  try {
    const low = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > LOWEST + ATTEMPTS ? low : EPHEMERAL_FROM;
  } catch {
    return EPHEMERAL_FROM;
  }
}

/** ports this process handed out: not handed out twice before their user binds them */
const handedOut = new Set<number>();

function bindable(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(null));
    srv.listen({ port, host: '127.0.0.1', exclusive: true }, () => {
      const { port: bound } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(bound));
    });
  });
}

/** A loopback port nothing listens on, below the ephemeral range (else, after 64 tries, any free one). */
export async function freePort(): Promise<number> {
  const below = ephemeralFrom();
  for (let i = 0; i < ATTEMPTS; i++) {
    const port = LOWEST + Math.floor(Math.random() * (below - LOWEST));
    if (handedOut.has(port)) continue;
    if ((await bindable(port)) !== null) return handOut(port);
  }
  const any = await bindable(0);
  if (any === null) throw new Error('no free loopback port');
  return handOut(any);
}

function handOut(port: number): number {
  handedOut.add(port);
  return port;
}
