// PUBLISH packets read straight from the socket's chunk. mqtt-packet's parser copies every chunk into a buffer list and
// walks each packet through four states (header, length, payload, emit), with a debug call at every step; on the
// broker thread that was about a fifth of a device message's cost. A chunk that starts on a packet boundary and holds
// whole MQTT 3.1.1 PUBLISH packets (what a device's socket delivers almost always) is decoded here into the same
// packets, emitted in the same order; anything else (other packet types, a packet split across chunks, anything
// malformed) is left to the original parser, which then reports errors exactly as before.
//
// No packet's remaining length may exceed MQTT_MAX_PACKET_BYTES: mqtt-packet holds a whole packet before emitting it, so
// one connection announcing 256 MB (the protocol's maximum, before CONNECT even) could make the broker thread buffer
// that much. The fast path leaves such a packet to the original parser; once that has read a packet's fixed header and
// its length is over the limit, the parser lets go of the bytes it holds, ignores whatever comes after and reports an
// error, on which aedes closes the connection (MQTT 3.1.1 has no other way to refuse a packet).

/**
 * The largest remaining length of a packet the broker takes (1 MiB, EMQX's default max_packet_size): room for the
 * telemetry's 64 KB payloads (a larger payload still reaches the pipeline, which drops and counts it per device) and
 * for a WebSocket frame (1 MB, websocket.ts), while a connection cannot make the broker hold more than about this.
 */
export const MQTT_MAX_PACKET_BYTES = 1024 * 1024;

/** What an mqtt-packet parser exposes of itself (its own fields: `_list` the bytes held, the state it is in). */
export interface PacketParser {
  parse(buf: Buffer): number;
  emit(event: 'packet' | 'error', arg: unknown): boolean;
  settings?: { protocolVersion?: number };
  packet: { length: number };
  /** the error that stopped the parse, if one did (the next parse starts afresh) */
  error?: Error | null;
  _list: { length: number; consume(bytes: number): unknown };
  _stateCounter: number;
}

type PacketClass = new () => Record<string, unknown>;

/** the fast path's own state on a parser (no closure per connection: a broker holds thousands of them) */
interface FastParser extends PacketParser {
  /** a chunk is being parsed: chunks arriving meanwhile (a packet's handling reads the socket again) wait in `_later` */
  _fastBusy?: boolean;
  _later?: Buffer[];
}

/** What a parser reports when it refuses a packet over MQTT_MAX_PACKET_BYTES (aedes then closes the connection). */
export class PacketTooLarge extends Error {
  constructor(readonly length: number) {
    super(`packet of ${length} bytes refused (limit ${MQTT_MAX_PACKET_BYTES})`);
  }
}

/** a refused parser's parse: whatever else arrives on the connection is dropped */
const refusedParse = (): number => 0;

/**
 * A `parse` with the PUBLISH fast path for parsers of this mqtt-packet (`Packet` its packet class, `slowParse` its own
 * `Parser.prototype.parse`), to set on each parser: `parser.parse = fast`. `refused` hears of each packet refused for
 * its length (before the parser's 'error').
 */
export function fastPublishParse(
  Packet: PacketClass,
  slowParse: (this: PacketParser, buf: Buffer) => number,
  refused?: (parser: PacketParser, length: number) => void,
): (this: PacketParser, buf: Buffer) => number {
  /** bytes of `buf` from `from` that are whole PUBLISH packets, emitted; returns where the rest begins */
  function publishes(parser: PacketParser, buf: Buffer, from: number): number {
    let at = from;
    while (at < buf.length) {
      const head = buf[at]!;
      const qos = (head >> 1) & 3;
      if (head >> 4 !== 3 || qos === 3) return at;
      // remaining length: 1–4 bytes, 7 bits each
      let length = 0;
      let i = at + 1;
      let shift = 0;
      for (;;) {
        if (i >= buf.length || shift > 21) return at;
        const byte = buf[i++]!;
        length += (byte & 0x7f) * 2 ** shift;
        if ((byte & 0x80) === 0) break;
        shift += 7;
      }
      const end = i + length;
      if (end > buf.length || i + 2 > end || length > MQTT_MAX_PACKET_BYTES) return at;
      const topicLength = buf.readUInt16BE(i);
      const topicEnd = i + 2 + topicLength;
      const idEnd = topicEnd + (qos > 0 ? 2 : 0);
      if (topicLength === 0 || idEnd > end) return at;
      const packet = new Packet();
      packet.cmd = 'publish';
      packet.retain = (head & 1) !== 0;
      packet.qos = qos;
      packet.dup = (head & 8) !== 0;
      packet.length = length;
      packet.topic = buf.toString('utf8', i + 2, topicEnd);
      if (qos > 0) packet.messageId = buf.readUInt16BE(topicEnd);
      packet.payload = buf.subarray(idEnd, end);
      at = end;
      parser.emit('packet', packet);
    }
    return at;
  }

  /** the parser lets go of what it holds, parses nothing more and reports the error (aedes closes the connection) */
  function refuse(parser: FastParser) {
    const length = parser.packet.length;
    parser.parse = refusedParse;
    parser._later = undefined;
    parser._list.consume(parser._list.length);
    refused?.(parser, length);
    const err = new PacketTooLarge(length);
    parser.error = err;
    parser.emit('error', err);
  }

  /**
   * The original parser on `buf`; once it has read the header of a packet over the limit (that packet is still the one
   * it parses: its body cannot have arrived yet), the packet is refused. A chunk longer than the limit (a backlog read
   * at once) goes in pieces of at most the limit, so that no packet over it can begin and end within one of them.
   */
  function slow(parser: FastParser, buf: Buffer) {
    for (let at = 0; at < buf.length; at += MQTT_MAX_PACKET_BYTES) {
      slowParse.call(parser, buf.length <= MQTT_MAX_PACKET_BYTES ? buf : buf.subarray(at, at + MQTT_MAX_PACKET_BYTES));
      if (parser.packet.length > MQTT_MAX_PACKET_BYTES) return refuse(parser);
      // after an error the original leaves the rest of its chunk unparsed (its next parse starts afresh)
      if (parser.error) return;
    }
  }

  function one(parser: FastParser, buf: Buffer) {
    // between packets (nothing held, no packet begun) the chunk may start with whole PUBLISH packets
    const between =
      parser._list.length === 0 &&
      parser._stateCounter === 0 &&
      parser.packet.length === -1 &&
      parser.settings?.protocolVersion !== 5;
    const rest = between ? publishes(parser, buf, 0) : 0;
    if (rest < buf.length) slow(parser, rest === 0 ? buf : buf.subarray(rest));
  }

  return function parse(this: FastParser, buf: Buffer): number {
    if (this._fastBusy) {
      (this._later ??= []).push(buf);
      return this._list.length;
    }
    this._fastBusy = true;
    try {
      one(this, buf);
      for (let next = this._later?.shift(); next; next = this._later?.shift()) one(this, next);
    } finally {
      this._fastBusy = false;
    }
    return this._list.length;
  };
}
