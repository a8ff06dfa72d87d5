// Device online/offline tracking: a device is online from a connect, an LWT "Online" or any accepted message; offline
// on its last disconnect, an LWT "Offline", or — for devices with no open connection (LoRa devices behind a network
// server) — after `silenceTimeoutMs` without a message. A connected device is kept alive by MQTT keep-alive instead.
// The device registry owns the device row: it listens to the transitions and writes last_online_ts/last_offline_ts.

export type SeenReason = 'connect' | 'message' | 'lwt';
export type OfflineReason = 'disconnect' | 'lwt' | 'silence';

export interface DeviceSeen {
  deviceId: number;
  appId: number;
  ts: number;
  reason: SeenReason;
}
export interface DeviceOffline {
  deviceId: number;
  appId: number;
  ts: number;
  reason: OfflineReason;
}

interface Presence {
  appId: number;
  online: boolean;
  connections: number;
  lastHeard: number;
}

export function createPresenceTracker(opts: { now: () => number; silenceTimeoutMs: number; onSeen: (e: DeviceSeen) => void; onOffline: (e: DeviceOffline) => void }) {
  const devices = new Map<number, Presence>();

  function entry(deviceId: number, appId: number): Presence {
    let p = devices.get(deviceId);
    if (!p) devices.set(deviceId, (p = { appId, online: false, connections: 0, lastHeard: 0 }));
    return p;
  }
  function up(deviceId: number, p: Presence, ts: number, reason: SeenReason) {
    p.lastHeard = ts;
    if (p.online) return;
    p.online = true;
    opts.onSeen({ deviceId, appId: p.appId, ts, reason });
  }
  function down(deviceId: number, p: Presence, ts: number, reason: OfflineReason) {
    if (!p.online) return;
    p.online = false;
    opts.onOffline({ deviceId, appId: p.appId, ts, reason });
  }

  return {
    connected(deviceId: number, appId: number): void {
      const p = entry(deviceId, appId);
      p.connections++;
      up(deviceId, p, opts.now(), 'connect');
    },
    disconnected(deviceId: number, appId: number): void {
      const p = entry(deviceId, appId);
      p.connections = Math.max(0, p.connections - 1);
      // a client taking over the same identity connects before the old connection's disconnect arrives
      if (p.connections === 0) down(deviceId, p, opts.now(), 'disconnect');
    },
    /** an accepted message (hot path: one map lookup and a timestamp) */
    heard(deviceId: number, appId: number, ts: number): void {
      const p = devices.get(deviceId) ?? entry(deviceId, appId);
      if (p.online) p.lastHeard = ts;
      else up(deviceId, p, ts, 'message');
    },
    lwt(deviceId: number, appId: number, online: boolean): void {
      const p = entry(deviceId, appId);
      if (online) up(deviceId, p, opts.now(), 'lwt');
      else down(deviceId, p, opts.now(), 'lwt');
    },
    /** marks silent connection-less devices offline; the pipeline calls it on a timer */
    sweep(): number {
      const now = opts.now();
      let n = 0;
      for (const [deviceId, p] of devices) {
        if (!p.online) {
          // forget devices that left long ago, so the map does not grow with every device ever heard
          if (p.connections === 0 && now - p.lastHeard > opts.silenceTimeoutMs * 4) devices.delete(deviceId);
          continue;
        }
        if (p.connections === 0 && now - p.lastHeard >= opts.silenceTimeoutMs) {
          down(deviceId, p, now, 'silence');
          n++;
        }
      }
      return n;
    },
    isOnline(deviceId: number): boolean {
      return devices.get(deviceId)?.online === true;
    },
    onlineCount(): number {
      let n = 0;
      for (const p of devices.values()) if (p.online) n++;
      return n;
    },
    forget(deviceId: number): void {
      devices.delete(deviceId);
    },
  };
}

export type PresenceTracker = ReturnType<typeof createPresenceTracker>;
