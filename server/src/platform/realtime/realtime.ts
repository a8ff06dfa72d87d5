// The socket.io server on the gateway's HTTP port: handshake authenticated with the REST session headers, clients
// subscribe to domain channels, and emits reach a room on every gateway process (through the bus when it is NATS).
import type http from 'node:http';
import { Server, type Socket } from 'socket.io';
import { Result, T } from '@sentra/contracts';
import type { Bus } from '../bus/types.js';
import { ApiError, notFound, unauthorized } from '../http/errors.js';
import type { Caller } from '../http/mount.js';
import type { Logger } from '../log.js';
import { ROOM_PATTERN, type HandshakeAuthenticator, type Realtime, type RealtimeChannel } from './types.js';

export interface RealtimeOptions {
  server: http.Server;
  bus: Bus;
  log: Logger;
  authenticate: HandshakeAuthenticator;
  /** access data changed (sign-out, password, user, role, credentials): every socket's caller is checked again */
  onAccessChange?: (listener: () => void) => () => void;
  /**
   * What else a caller's rooms depend on besides its system grants (the dashboards its role opens): a socket whose
   * answer changes after an access change re-checks its rooms like one whose grants changed.
   */
  accessKey?: (caller: Caller) => string | Promise<string>;
}

interface SocketData {
  caller: Caller;
  /** grantsKey and accessKey of the caller when last checked */
  key: string;
  /** the handshake's session headers, to authenticate the socket again after an access change */
  header: (name: string) => string | undefined;
  /** room → channel it was joined through, and the params */
  rooms: Map<string, { channel: string; params: unknown }>;
  /** subscribes whose join() has not answered yet: they count against the room limit too, or a burst of them would
   * all pass it before the first one joined */
  joining: number;
}

/** what a caller may do, for comparing the caller of a socket before and after an access change */
const grantsKey = (c: Caller) =>
  JSON.stringify([
    c.kind,
    c.tenantId,
    c.accountId ?? null,
    c.app?.id ?? null,
    c.grants ? [[...c.grants.navs].sort(), c.grants.permissions] : null,
  ]);

type Ack = (answer: Record<string, unknown>) => void;

const FANOUT_PREFIX = 'rt.';
// a console page watches a few dozen cards; more is a leak or abuse
const MAX_ROOMS_PER_SOCKET = 200;
const MAX_CHANNEL_NAME = 64;

function envelopeOf(err: unknown, log: Logger): Record<string, unknown> {
  if (err instanceof ApiError) {
    const body: Record<string, unknown> = { response_result: err.code, message: err.message, ...err.extra };
    if (err.errors) body.errors = err.errors;
    return body;
  }
  log.error('realtime channel failed', err);
  return { response_result: Result.UNEXPECTED, message: T.common.unexpected };
}

export function createRealtime(opts: RealtimeOptions): Realtime {
  const { bus, log } = opts;
  const io = new Server(opts.server, {
    serveClient: false,
    // clients only send small subscribe requests
    maxHttpBufferSize: 64 * 1024,
  });
  const channels = new Map<string, RealtimeChannel>();
  const viewerCount = new Map<string, number>();
  const emptyListeners = new Set<(room: string) => void>();
  const occupiedListeners = new Set<(room: string) => void>();
  let closing: Promise<void> | undefined;
  const keyOf = async (caller: Caller) =>
    grantsKey(caller) + (opts.accessKey ? `|${await opts.accessKey(caller)}` : '');

  const notify = (set: Set<(room: string) => void>, room: string) => {
    for (const fn of set) {
      try {
        fn(room);
      } catch (err) {
        log.error('realtime room listener failed', err);
      }
    }
  };

  io.use(async (socket, next) => {
    const auth = (socket.handshake.auth ?? {}) as Record<string, unknown>;
    const header = (name: string) => {
      const v = auth[name] ?? socket.handshake.headers[name];
      return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
    };
    try {
      const caller = await opts.authenticate(header);
      if (!caller) throw unauthorized();
      socket.data = { caller, key: await keyOf(caller), header, rooms: new Map(), joining: 0 } satisfies SocketData;
      next();
    } catch (err) {
      const e = err instanceof ApiError ? err : new ApiError(Result.UNEXPECTED, T.common.unexpected, 500);
      if (!(err instanceof ApiError)) log.error('realtime handshake failed', err);
      const refusal = new Error(e.message) as Error & { data: unknown };
      refusal.data = { status: e.status, response_result: e.code, message: e.message, ...e.extra };
      next(refusal);
    }
  });

  function joined(socket: Socket, room: string, channel: string, params: unknown) {
    const data = socket.data as SocketData;
    if (data.rooms.has(room)) return;
    data.rooms.set(room, { channel, params });
    void socket.join(room);
    const count = (viewerCount.get(room) ?? 0) + 1;
    viewerCount.set(room, count);
    if (count === 1) notify(occupiedListeners, room);
  }

  function left(socket: Socket, room: string) {
    const data = socket.data as SocketData;
    const channel = data.rooms.get(room)?.channel;
    if (channel === undefined) return;
    data.rooms.delete(room);
    void socket.leave(room);
    try {
      channels.get(channel)?.leave?.(room, data.caller);
    } catch (err) {
      log.error(`realtime channel ${channel} leave failed`, err);
    }
    const count = (viewerCount.get(room) ?? 1) - 1;
    if (count > 0) return void viewerCount.set(room, count);
    viewerCount.delete(room);
    notify(emptyListeners, room);
  }

  async function subscribe(socket: Socket, request: unknown): Promise<Record<string, unknown>> {
    const { channel: name, params } = (request ?? {}) as { channel?: unknown; params?: unknown };
    if (typeof name !== 'string' || name.length > MAX_CHANNEL_NAME)
      throw new ApiError(Result.INVALID, T.common.invalidInput);
    const channel = channels.get(name);
    if (!channel) throw notFound();
    const data = socket.data as SocketData;
    if (data.rooms.size + data.joining >= MAX_ROOMS_PER_SOCKET)
      throw new ApiError(Result.INVALID, T.common.invalidInput);
    data.joining++;
    let room: string;
    try {
      room = await channel.join(data.caller, params ?? {});
    } finally {
      data.joining--;
    }
    if (typeof room !== 'string' || room.length > 200 || !ROOM_PATTERN.test(room))
      throw new Error(`channel ${name} answered an invalid room "${String(room)}"`);
    if (!socket.connected) return { response_result: Result.OK, room };
    joined(socket, room, name, params ?? {});
    return { response_result: Result.OK, room };
  }

  /**
   * After an access change: a socket whose session no longer authenticates is disconnected; one whose grants changed
   * keeps only the rooms its channels still give it (the same room for the same params).
   */
  async function recheck(socket: Socket): Promise<void> {
    const data = socket.data as SocketData;
    let caller: Caller | null = null;
    try {
      caller = await opts.authenticate(data.header);
    } catch {
      caller = null;
    }
    if (!socket.connected) return;
    if (!caller) return void socket.disconnect(true);
    const key = await keyOf(caller);
    if (!socket.connected) return;
    const changed = key !== data.key;
    data.caller = caller;
    data.key = key;
    if (!changed) return;
    for (const [room, { channel, params }] of [...data.rooms]) {
      let still = false;
      try {
        still = (await channels.get(channel)?.join(caller, params)) === room;
      } catch {
        still = false;
      }
      if (!still) left(socket, room);
    }
  }
  let recheckDue: NodeJS.Timeout | undefined;
  const offAccess = opts.onAccessChange?.(() => {
    // changes come in bursts (a role edit, then its menus): one pass after them
    recheckDue ??= setTimeout(() => {
      recheckDue = undefined;
      for (const socket of io.sockets.sockets.values())
        recheck(socket).catch((err) => log.error('realtime access recheck failed', err));
    }, 20);
  });

  io.on('connection', (socket) => {
    socket.on('subscribe', (request: unknown, ack?: Ack) => {
      const reply: Ack = typeof ack === 'function' ? ack : () => undefined;
      subscribe(socket, request).then(reply, (err) => reply(envelopeOf(err, log)));
    });
    socket.on('unsubscribe', (request: unknown, ack?: Ack) => {
      const room = (request as { room?: unknown } | null)?.room;
      if (typeof room === 'string') left(socket, room);
      if (typeof ack === 'function') ack({ response_result: Result.OK });
    });
    socket.on('disconnect', () => {
      for (const room of [...(socket.data as SocketData).rooms.keys()]) left(socket, room);
    });
  });

  const deliver = (room: string, event: string, payload: unknown) => {
    if (viewerCount.has(room)) io.to(room).emit(event, payload);
  };
  // with NATS every gateway process hears every emit and delivers to its own sockets
  const fanout =
    bus.kind === 'nats'
      ? bus.subscribe<{ e: string; p: unknown }>(`${FANOUT_PREFIX}>`, (m) =>
          deliver(m.subject.slice(FANOUT_PREFIX.length), m.data.e, m.data.p),
        )
      : undefined;

  return {
    channel(name, def) {
      if (channels.has(name)) throw new Error(`realtime channel ${name} is already registered`);
      channels.set(name, def);
    },
    emit(room, event, payload) {
      if (!ROOM_PATTERN.test(room)) throw new Error(`invalid realtime room "${room}"`);
      if (fanout) bus.publish(FANOUT_PREFIX + room, { e: event, p: payload });
      else deliver(room, event, payload);
    },
    viewers: (room) => viewerCount.get(room) ?? 0,
    onRoomEmpty(listener) {
      emptyListeners.add(listener);
      return () => void emptyListeners.delete(listener);
    },
    onRoomOccupied(listener) {
      occupiedListeners.add(listener);
      return () => void occupiedListeners.delete(listener);
    },
    disconnect(match) {
      let count = 0;
      for (const socket of io.sockets.sockets.values()) {
        let hit = false;
        try {
          hit = match((socket.data as SocketData).caller);
        } catch (err) {
          log.error('realtime disconnect matcher failed', err);
        }
        if (hit) {
          socket.disconnect(true);
          count++;
        }
      }
      return count;
    },
    close() {
      closing ??= (async () => {
        offAccess?.();
        if (recheckDue) clearTimeout(recheckDue);
        fanout?.unsubscribe();
        // not io.close(): it also closes the HTTP server and waits for every connection on it, including the MQTT
        // WebSockets the broker has not closed yet; the HTTP server belongs to the app
        io.disconnectSockets(true);
        io.engine.close();
      })();
      return closing;
    },
  };
}
