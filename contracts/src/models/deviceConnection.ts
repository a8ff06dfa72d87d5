// Everything a device needs to connect, from what the add (or a regenerate) answered once: the broker's host, port and
// TLS from its URL, the WebSocket URL, the device's topics per family (generic `d/<id>/…`, gateways `gw/<uid>/…`,
// Tasmota `tele|stat|cmnd/<topic>/…`), an example message, a `mosquitto_pub` line that sends it, and for Tasmota the
// one-line Backlog to paste into its console. Shared by the console's "shown once" screen and the tests that publish
// exactly what the line says.

export type ConnectionKind = 'mqtt' | 'tasmota' | 'gateway';

export interface ConnectionGuideInput {
  kind: ConnectionKind;
  /** `mqtt://host:port` or `mqtts://host:port` (the address devices use, MQTT_PUBLIC_URL or derived) */
  brokerUrl: string;
  /** MQTT over WebSocket: `/mqtt` on the console's own address */
  wsUrl: string;
  username: string;
  password: string;
  /** generic MQTT devices: their id (topics `d/<id>/…`) */
  deviceId?: number;
  /** Tasmota: its Topic */
  topic?: string;
  /** gateways: the UID (client id and username) */
  uid?: string;
}

export interface GuideTopic {
  topic: string;
  /** what the device does with it */
  direction: 'publish' | 'subscribe';
  /** what travels there, in the catalogue's words */
  what: string;
}

export interface ConnectionGuide {
  host: string;
  port: number;
  tls: boolean;
  wsUrl: string;
  /** a client id the broker requires (a gateway's UID); undefined: any */
  clientId?: string;
  topics: GuideTopic[];
  example: { topic: string; payload: string };
  mosquittoPub: string;
  /** Tasmota: the line for its console */
  tasmotaBacklog?: string;
}

export interface GuideWords {
  data: string;
  state: string;
  commands: string;
  replies: string;
  presence: string;
}

/** The broker's address parts from its URL; `mqtts:` is TLS (default port 8883, else 1883). */
export function brokerParts(url: string): { host: string; port: number; tls: boolean } {
  const u = new URL(url);
  const tls = u.protocol === 'mqtts:';
  const host = u.hostname.replace(/^\[(.*)\]$/, '$1');
  return { host, port: u.port ? Number(u.port) : tls ? 8883 : 1883, tls };
}

/** A shell word: bare when it is plain, else single-quoted (a quote inside written as '\''). */
export function shellWord(s: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Example messages: what each family's uplink reads (families/<wire>/uplink.ts). */
const EXAMPLES: Record<ConnectionKind, unknown> = {
  mqtt: { suhu: { data: { celsius: 24.5, kelembapan: 61 } } },
  tasmota: { ENERGY: { Power: 45.2, Voltage: 229.8, Current: 0.21 } },
  gateway: { node: 1, registers: { '40001': 231.5, '40003': 12.8 } },
};

export function connectionGuide(input: ConnectionGuideInput, words: GuideWords): ConnectionGuide {
  const { host, port, tls } = brokerParts(input.brokerUrl);
  let topics: GuideTopic[];
  let exampleTopic: string;
  let clientId: string | undefined;
  if (input.kind === 'mqtt') {
    const d = `d/${input.deviceId}`;
    topics = [
      { topic: `${d}/data`, direction: 'publish', what: words.data },
      { topic: `${d}/state`, direction: 'publish', what: words.state },
      { topic: `${d}/cmd`, direction: 'subscribe', what: words.commands },
      { topic: `${d}/cmd/res`, direction: 'publish', what: words.replies },
    ];
    exampleTopic = `${d}/data`;
  } else if (input.kind === 'tasmota') {
    const t = input.topic ?? '';
    topics = [
      { topic: `tele/${t}/SENSOR`, direction: 'publish', what: words.data },
      { topic: `tele/${t}/STATE`, direction: 'publish', what: words.state },
      { topic: `tele/${t}/LWT`, direction: 'publish', what: words.presence },
      { topic: `cmnd/${t}/#`, direction: 'subscribe', what: words.commands },
      { topic: `stat/${t}/RESULT`, direction: 'publish', what: words.replies },
    ];
    exampleTopic = `tele/${t}/SENSOR`;
  } else {
    const g = `gw/${input.uid}`;
    clientId = input.uid;
    topics = [
      { topic: `${g}/up`, direction: 'publish', what: words.data },
      { topic: `${g}/down`, direction: 'subscribe', what: words.commands },
      { topic: `${g}/res`, direction: 'publish', what: words.replies },
    ];
    exampleTopic = `${g}/up`;
  }
  const payload = JSON.stringify(EXAMPLES[input.kind]);
  const mosquittoPub = [
    'mosquitto_pub',
    '-h',
    shellWord(host),
    '-p',
    String(port),
    // TLS against the system's certificate authorities (a public certificate, as MQTT_PUBLIC_URL's host should have)
    ...(tls ? ['--capath', '/etc/ssl/certs'] : []),
    ...(clientId ? ['-i', shellWord(clientId)] : []),
    '-u',
    shellWord(input.username),
    '-P',
    shellWord(input.password),
    '-q',
    '1',
    '-t',
    shellWord(exampleTopic),
    '-m',
    shellWord(payload),
  ].join(' ');
  return {
    host,
    port,
    tls,
    wsUrl: input.wsUrl,
    ...(clientId ? { clientId } : {}),
    topics,
    example: { topic: exampleTopic, payload },
    mosquittoPub,
    ...(input.kind === 'tasmota'
      ? {
          tasmotaBacklog:
            `Backlog MqttHost ${host}; MqttPort ${port}; MqttUser ${input.username}; ` +
            `MqttPassword ${input.password}; Topic ${input.topic ?? ''}; FullTopic %prefix%/%topic%/` +
            // a TLS build connects with TLS only when told (SetOption103)
            (tls ? '; SetOption103 1' : ''),
        }
      : {}),
  };
}
