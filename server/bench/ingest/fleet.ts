// The ingest benchmark's device fleet, a process of its own: the C fleet (fleet.c, compiled here on first use, the
// default) or the Node one (devices.ts: BENCH_FLEET=node for its lean protocol clients, BENCH_FLEET=mqttjs for
// MQTT.js). Both answer the same commands: connect → connected, run → ran, quit.
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { askChild } from '../child.js';

export type FleetCommand =
  | { cmd: 'devices'; file: string }
  | { cmd: 'connect'; port: number; devices: number; concurrency: number }
  | { cmd: 'run'; qos: 0 | 1; messagesPerSecond: number; seconds: number };

export interface Fleet {
  /** 'native' (C), 'node' or 'mqttjs' */
  kind: string;
  pid: number | undefined;
  ask<T>(msg: FleetCommand, answer: string, timeoutMs: number): Promise<T>;
  /** every connection ended, the process gone (killed after 15 s) */
  quit(): Promise<void>;
}

/** the whole process's time limit: connecting, the phases and their drains */
const limitS = (phaseS: number) => 5 * 60 + 3 * phaseS;

/** fleet.c built into the temporary directory, keyed by its source (null without a C compiler) */
let built: string | null | undefined;
function nativeBinary(): string | null {
  if (built !== undefined) return built;
  built = buildC('fleet.c');
  return built;
}

/** a C source of this folder built into the temporary directory, keyed by its content (null without a C compiler) */
export function buildC(file: string): string | null {
  const source = fileURLToPath(new URL(`./${file}`, import.meta.url));
  const hash = createHash('sha1').update(fs.readFileSync(source)).digest('hex').slice(0, 12);
  const binary = path.join(os.tmpdir(), `sentra-bench-${path.basename(file, '.c')}-${hash}`);
  if (fs.existsSync(binary)) return binary;
  try {
    execFileSync(process.env.CC ?? 'cc', ['-O2', '-o', `${binary}.tmp`, source], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    fs.renameSync(`${binary}.tmp`, binary);
    return binary;
  } catch {
    return null;
  }
}

function ending(child: ChildProcess, tell: () => void): Promise<void> {
  return (async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    tell();
    await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  })();
}

function nodeFleet(kind: string, limitSeconds: number): Fleet {
  const child = fork(fileURLToPath(new URL('./devices.ts', import.meta.url)), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, BENCH_FLEET: kind, BENCH_FLEET_LIMIT_S: String(limitSeconds) },
  });
  return {
    kind,
    pid: child.pid,
    ask: (msg, answer, timeoutMs) => askChild(child, msg, answer, timeoutMs),
    quit: () => ending(child, () => child.connected && child.send({ cmd: 'quit' })),
  };
}

function nativeFleet(binary: string, limitSeconds: number): Fleet {
  const child = spawn(binary, [], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, BENCH_FLEET_LIMIT_S: String(limitSeconds) },
  });
  // its answers are JSON lines on stdout, its commands lines on stdin: the same channel askChild uses over IPC
  const line = (msg: FleetCommand) =>
    msg.cmd === 'devices'
      ? `devices ${msg.file}`
      : msg.cmd === 'connect'
        ? `connect ${msg.port} ${msg.devices} ${msg.concurrency}`
        : `run ${msg.qos} ${msg.messagesPerSecond} ${msg.seconds}`;
  const channel = Object.assign(new EventEmitter(), {
    send: (msg: object) => child.stdin!.write(`${line(msg as FleetCommand)}\n`),
  });
  createInterface({ input: child.stdout! }).on('line', (text) => {
    let m: { cmd: string };
    try {
      m = JSON.parse(text) as { cmd: string };
    } catch {
      return; // not an answer
    }
    channel.emit('message', m);
  });
  return {
    kind: 'native',
    pid: child.pid,
    ask: (msg, answer, timeoutMs) => askChild(channel, msg, answer, timeoutMs),
    quit: () => ending(child, () => child.stdin!.end('quit\n')),
  };
}

/** whether the C fleet can run here (a C compiler built it) */
export const nativeFleetAvailable = (): boolean => nativeBinary() !== null;

/**
 * The fleet asked for (BENCH_FLEET: the C one unless 'node' or 'mqttjs'; the Node one when C cannot be built).
 * `limitSeconds`: the process's whole life (it exits then, whatever it is doing); by default enough for two phases.
 */
export function startFleet(
  phaseS: number,
  asked = process.env.BENCH_FLEET ?? 'native',
  limitSeconds = limitS(phaseS),
): Fleet {
  if (asked === 'node' || asked === 'mqttjs') return nodeFleet(asked, limitSeconds);
  const binary = nativeBinary();
  if (!binary) {
    process.stderr.write('ingest bench: no C compiler for the native fleet (fleet.c); using the Node fleet\n');
    return nodeFleet('node', limitSeconds);
  }
  return nativeFleet(binary, limitSeconds);
}
