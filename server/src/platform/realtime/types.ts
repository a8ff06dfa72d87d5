// What domains see of the live push to browsers: named channels a client subscribes to, rooms they resolve to,
// and emits to a room. Who may watch is the channel's join(); the platform only authenticates.
import type { Caller } from '../http/mount.js';

/** Reads one session header (x-tenant-id, x-tenant-token, ...) from a socket.io handshake. */
export type HandshakeHeader = (name: string) => string | undefined;

/** Authenticates a handshake; throws ApiError (401, 402, 404 ...) to refuse it. */
export type HandshakeAuthenticator = (header: HandshakeHeader) => Caller | null | Promise<Caller | null>;

export interface RealtimeChannel<P = any> {
  /** the room this caller watches for these params; throw ApiError (forbidden, notFound, invalid) to refuse */
  join(caller: Caller, params: P): string | Promise<string>;
  /** called once per socket leaving a room it joined through this channel (unsubscribe or disconnect) */
  leave?(room: string, caller: Caller): void;
}

export interface Realtime {
  /** registers a channel clients may `subscribe` to with `{ channel: name, params }` */
  channel<P = any>(name: string, def: RealtimeChannel<P>): void;
  /** delivers `event` with `payload` to every socket in `room`, on every gateway process (through the bus with NATS) */
  emit(room: string, event: string, payload: unknown): void;
  /** sockets of THIS process in the room: work for a room is done where its viewers are */
  viewers(room: string): number;
  /** fires when the last local viewer of a room leaves; returns a function removing the listener */
  onRoomEmpty(listener: (room: string) => void): () => void;
  /** fires when a room gets its first local viewer */
  onRoomOccupied(listener: (room: string) => void): () => void;
  /** disconnects the sockets whose caller matches (signed out, removed user); answers how many */
  disconnect(match: (caller: Caller) => boolean): number;
  close(): Promise<void>;
}

/** Room names become bus subjects (`rt.<room>`): word characters, `:` and `-`, dot-separated. */
export const ROOM_PATTERN = /^[\w:-]+(\.[\w:-]+)*$/;
