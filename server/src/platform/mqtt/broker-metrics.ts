// The broker's counters as the event loop sees them: packets refused for their size, connections closed for not
// reading, publishes dropped outside their rights (per identity, bounded). One place so that `metrics()` and the warning
// lines agree, and so that createBroker only reports what happened.
import type { Logger } from '../log.js';
import { MQTT_MAX_PACKET_BYTES } from './fast-publish.js';
import type { ConnectThrottle } from '../mqtt-connect-throttle.js';
import type { SessionStore } from './persistence/session-store.js';

/** identities whose dropped publishes are counted one by one in the metrics (the most recent ones) */
export const DROPPED_BY_KEY_LIMIT = 1000;

/** The broker's counters since start. */
export interface BrokerCounters {
  /** packets refused (their connections closed) for a remaining length over MQTT_MAX_PACKET_BYTES (fast-publish.ts) */
  oversized_packets: number;
  /** connections closed for holding more than `maxOutboundBytes` unwritten (they stopped reading) */
  outbound_overflows: number;
  /** publishes outside a client's rights, dropped (the connection stays up) */
  dropped_publishes: number;
  /** the same per identity key (`device:42`, ...), for the DROPPED_BY_KEY_LIMIT keys that dropped most recently */
  dropped_publishes_by_client: Record<string, number>;
  throttled_connects?: number;
  failed_connects?: number;
  slowed_connects?: number;
  provisional_refused?: number;
  /** persistent sessions kept (persistence/session-store.ts): messages dropped from full queues, retained messages
   * refused past a share (in all, and by the share: a device's, a tenant's, the platform's, a tenant past its fair part
   * of a nearly full store), retained messages whose MQTT 5 expiry passed, sessions ended by their expiry; and how many
   * are kept now, with the retained bytes */
  queued_dropped?: number;
  retained_refused?: number;
  retained_refused_device?: number;
  retained_refused_tenant?: number;
  retained_refused_platform?: number;
  retained_refused_fair_share?: number;
  retained_expired?: number;
  retained_bytes?: number;
  sessions_expired?: number;
  store_write_failures?: number;
  away_sessions?: number;
  queued_messages?: number;
  retained_messages?: number;
  /** several gateways (cluster.ts): sessions taken from the deployment, those that waited for other gateways, waits
   * that ran out; retained changes applied from other gateways; plain publishes sent to other gateways and received
   * from them; the other gateways live now, and the filters their clients subscribe to */
  cluster_takes?: number;
  cluster_take_waits?: number;
  cluster_take_timeouts?: number;
  cluster_retained_applied?: number;
  cluster_routed?: number;
  cluster_routed_in?: number;
  cluster_gateways?: number;
  /** client ids connected through other gateways, as announced */
  cluster_held_elsewhere?: number;
  /** times another gateway's list of client ids was asked for again (its count differed two beats running) */
  cluster_held_resyncs?: number;
  /** times the bus connection came back and the broker state was made to agree with the database, those that could
   * not read it (tried again), and the retained messages and away sessions that were mended by it */
  cluster_resyncs?: number;
  cluster_resync_failures?: number;
  cluster_resync_retained?: number;
  cluster_resync_sessions?: number;
  cluster_remote_filters?: number;
}

export class BrokerMetrics {
  private readonly counters = { oversized_packets: 0, outbound_overflows: 0, dropped_publishes: 0 };
  /** identity key → publishes dropped; the most recently dropping keys last (a Map keeps insertion order) */
  private readonly droppedByKey = new Map<string, number>();
  /** identity key → its retained messages refused (most recent last), for the log's "so far" */
  private readonly retainRefusedByKey = new Map<string, number>();

  constructor(
    private readonly log: Logger,
    private readonly maxOutbound: number,
  ) {}

  /** a publish outside its rights: dropped by the thread, counted here; warned on the first and every thousandth */
  dropped(key: string, topic: string) {
    this.counters.dropped_publishes++;
    const n = (this.droppedByKey.get(key) ?? 0) + 1;
    this.droppedByKey.delete(key);
    this.droppedByKey.set(key, n);
    if (this.droppedByKey.size > DROPPED_BY_KEY_LIMIT) this.droppedByKey.delete(this.droppedByKey.keys().next().value!);
    if (n === 1 || n % 1000 === 0)
      this.log.warn(`MQTT publish dropped (outside its rights): ${key} on ${topic} (${n} so far)`);
  }

  /** a connection (of `clientId`, or not yet identified) closed for holding `bytes` unwritten */
  overflowed(clientId: string | undefined, bytes: number) {
    this.counters.outbound_overflows++;
    this.log.warn(
      `MQTT ${clientId === undefined ? 'connection' : `client ${clientId}`} closed: ${bytes} bytes waiting to be sent (limit ${this.maxOutbound}); it stopped reading`,
    );
  }

  /** a retained message of `key` over its share (counted by the session store): said at the first and every 1000th */
  retainRefused(key: string, topic: string) {
    const n = (this.retainRefusedByKey.get(key) ?? 0) + 1;
    this.retainRefusedByKey.delete(key);
    this.retainRefusedByKey.set(key, n);
    if (this.retainRefusedByKey.size > DROPPED_BY_KEY_LIMIT)
      this.retainRefusedByKey.delete(this.retainRefusedByKey.keys().next().value!);
    if (n === 1 || n % 1000 === 0)
      this.log.warn(
        `MQTT retained message refused (over its share of the retained store): ${key} on ${topic} (${n} so far)`,
      );
  }

  /** a connection closed by its thread for announcing a packet over MQTT_MAX_PACKET_BYTES */
  oversized(clientId: string | undefined, length: number) {
    this.counters.oversized_packets++;
    this.log.debug(
      `MQTT ${clientId === undefined ? 'connection' : `client ${clientId}`} closed: a packet of ${length} bytes (limit ${MQTT_MAX_PACKET_BYTES})`,
    );
  }

  /** the counters with the throttle's and the session store's, as `EmbeddedBroker.metrics()` reports them */
  snapshot(throttle?: ConnectThrottle, store?: SessionStore): BrokerCounters {
    const kept = store && {
      ...store.counters,
      away_sessions: store.size.sessions,
      queued_messages: store.size.queued,
      retained_messages: store.size.retained,
      retained_bytes: store.retainedUse().bytes,
    };
    return {
      ...this.counters,
      dropped_publishes_by_client: Object.fromEntries(this.droppedByKey),
      ...throttle?.metrics(),
      ...kept,
    };
  }
}
