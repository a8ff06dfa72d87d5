// Where the broker's session store (session-store.ts) keeps its state: read once at start, and each flush's changes
// written in one transaction. The store lives in memory on the event loop; this is the only part that talks to an
// engine: SQLite (sqlite-persistence.ts, the embedded default) or PostgreSQL (pg-persistence.ts).
import type { EngineKind } from '../../db/store.js';

/** a retained message as stored (mqtt_retained) */
export interface RetainedRow {
  topic: string;
  payload: Buffer;
  qos: number;
  /** MQTT 5 properties (JSON) */
  properties: string | null;
  expiresAt: number | null;
  /** its holder's device and tenant; null for one kept before shares were counted */
  holder: string | null;
  tenant: string | null;
}

/** an away persistent session as stored (mqtt_sessions) */
export interface SessionRow {
  clientId: string;
  identityKey: string;
  /** JSON [{ topic, qos }] */
  subscriptions: string;
  expiresAt: number;
}

/** a message queued for an away session as stored (mqtt_queued) */
export interface QueuedRow {
  clientId: string;
  topic: string;
  payload: Buffer;
  qos: number;
  properties: string | null;
  expiresAt: number | null;
}

/** everything stored, read at start; queued messages in the order they were queued */
export interface BrokerStateSnapshot {
  retained: RetainedRow[];
  sessions: SessionRow[];
  queued: QueuedRow[];
}

/** one away session as stored, and its queue (none: no row) */
export interface StoredSession {
  session?: SessionRow;
  queued: QueuedRow[];
}

/** one change to the stored state; a flush hands over its changes in the order they were made */
export type BrokerStateChange =
  | { op: 'putRetained'; row: RetainedRow }
  | { op: 'delRetained'; topic: string }
  | { op: 'putSession'; row: SessionRow }
  /** the session ends: its row and its queued messages go */
  | { op: 'endSession'; clientId: string }
  | { op: 'putQueued'; row: QueuedRow }
  /** the `count` oldest queued messages of the session go (its queue was over its bound) */
  | { op: 'dropOldest'; clientId: string; count: number }
  /** every queued message of the session goes (its queue is written again in a new order next) */
  | { op: 'clearQueued'; clientId: string }
  /** the first queued message of the session on `topic` with this payload goes */
  | { op: 'unqueue'; clientId: string; topic: string; payload: Buffer };

export interface BrokerStatePersistence {
  readonly kind: EngineKind;
  /** everything stored; `queued` false: the retained messages and away sessions only (their queues left unread) */
  load(queued?: boolean): Promise<BrokerStateSnapshot>;
  /** the same, at once (SQLite): the composition can start the store without awaiting */
  loadSync?(queued?: boolean): BrokerStateSnapshot;
  /** one away session and its queued messages, in order, as stored now (a session taken from another gateway) */
  loadSession(clientId: string): Promise<StoredSession>;
  /** one flush's changes in one transaction: all of them are stored, or none (the promise rejects) */
  write(changes: readonly BrokerStateChange[]): Promise<void>;
}
