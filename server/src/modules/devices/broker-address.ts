// The broker address devices are told to use (the add's answer, a family's info, the gateway settings): the configured
// MQTT_PUBLIC_URL, else the host the console was reached at with the broker's port (never the bind address, which a
// device on the network cannot reach when it is 127.0.0.1 or 0.0.0.0). MQTT over WebSocket is `/mqtt` on the
// address the request came to.

/** What a request says about where it was sent: its Host header and whether it came over TLS. */
export interface RequestOrigin {
  host?: string;
  secure?: boolean;
}

export interface BrokerAddressConfig {
  /** MQTT_PUBLIC_URL: `mqtt://host[:port]` or `mqtts://host[:port]` */
  publicUrl?: string;
  /** the gateway's bind address (HOST): the last resort without a request */
  bindHost: string;
  mqttPort: number;
  httpPort: number;
}

export interface BrokerAddress {
  url: string;
  host: string;
  port: number;
  tls: boolean;
  wsUrl: string;
}

// a host name, an IPv4 address or a bracketed IPv6 address, with an optional port: anything else in a Host header
// (a client may send what it likes) is not repeated to devices
const HOST_HEADER =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62})(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}))*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const ANY_ADDRESS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The request's origin, from an Express request (no proxy header is trusted, as for the throttles). */
export const requestOrigin = (req: { headers: { host?: string }; secure?: boolean }): RequestOrigin => ({
  host: req.headers.host,
  secure: req.secure === true,
});

/** `host[:port]` of a valid Host header, split; undefined for an invalid one. */
function parseHostHeader(value: string | undefined): { name: string; withPort: string } | undefined {
  if (!value || value.length > 260 || !HOST_HEADER.test(value)) return undefined;
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0]!;
  return { name, withPort: value };
}

export function brokerAddress(config: BrokerAddressConfig, origin: RequestOrigin = {}): BrokerAddress {
  const fromRequest = parseHostHeader(origin.host);
  const bind = ANY_ADDRESS.has(config.bindHost) ? '127.0.0.1' : config.bindHost;
  const bindName = bind.includes(':') && !bind.startsWith('[') ? `[${bind}]` : bind;
  const wsUrl = `${origin.secure ? 'wss' : 'ws'}://${fromRequest?.withPort ?? `${bindName}:${config.httpPort}`}/mqtt`;
  if (config.publicUrl) {
    const u = new URL(config.publicUrl);
    const tls = u.protocol === 'mqtts:';
    const port = u.port ? Number(u.port) : tls ? 8883 : 1883;
    return {
      url: `${u.protocol}//${u.hostname}:${port}`,
      host: u.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      tls,
      wsUrl,
    };
  }
  const name = fromRequest?.name ?? bindName;
  return {
    url: `mqtt://${name}:${config.mqttPort}`,
    host: name.replace(/^\[(.*)\]$/, '$1'),
    port: config.mqttPort,
    tls: false,
    wsUrl,
  };
}
