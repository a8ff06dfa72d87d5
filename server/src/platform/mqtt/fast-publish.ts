// PUBLISH packets read straight from the socket's chunk. mqtt-packet's parser copies every chunk into a buffer list and
// walks each packet through four states (header, length, payload, emit), with a debug call at every step; on the
// broker thread that was about a fifth of a device message's cost. A chunk that starts on a packet boundary and holds
// whole MQTT 3.1.1 PUBLISH packets (what a device's socket delivers almost always) is decoded here into the same
// packets, emitted in the same order; anything else (other packet types, a packet split across chunks, anything
// malformed) is left to the original parser, which then reports errors exactly as before.

/** What an mqtt-packet parser exposes of itself (its own fields: `_list` the bytes held, the state it is in). */
export interface PacketParser {
  parse(buf: Buffer): number;
  emit(event: 'packet', packet: unknown): boolean;
  settings?: { protocolVersion?: number };
  packet: { length: number };
  _list: { length: number };
  _stateCounter: number;
}

type PacketClass = new () => Record<string, unknown>;

/** the fast path's own state on a parser (no closure per connection: a broker holds thousands of them) */
interface FastParser extends PacketParser {
  /** a chunk is being parsed: chunks arriving meanwhile (a packet's handling reads the socket again) wait in `_later` */
  _fastBusy?: boolean;
  _later?: Buffer[];
}

/**
 * A `parse` with the PUBLISH fast path for parsers of this mqtt-packet (`Packet` its packet class, `slowParse` its own
 * `Parser.prototype.parse`), to set on each parser: `parser.parse = fast`.
 */
export function fastPublishParse(Packet: PacketClass, slowParse: (this: PacketParser, buf: Buffer) => number): (this: PacketParser, buf: Buffer) => number {
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
      if (end > buf.length || i + 2 > end) return at;
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

  function one(parser: PacketParser, buf: Buffer) {
    // between packets (nothing held, no packet begun) the chunk may start with whole PUBLISH packets
    const between = parser._list.length === 0 && parser._stateCounter === 0 && parser.packet.length === -1 && parser.settings?.protocolVersion !== 5;
    const rest = between ? publishes(parser, buf, 0) : 0;
    if (rest < buf.length) slowParse.call(parser, rest === 0 ? buf : buf.subarray(rest));
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
