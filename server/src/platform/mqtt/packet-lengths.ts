// The packet size limit without a parser of our own (the plain-aedes mode, thread-plain.ts, leaves mqtt-packet's
// parser as it is): a connection's bytes are followed from packet to packet as they arrive, reading each packet's
// fixed header and remaining length and skipping its body, so that a packet announcing more than the limit is refused
// as soon as its header is read, before any of it is held (the fast path's parser does the same: fast-publish.ts).
import { MQTT_MAX_PACKET_BYTES } from './fast-publish.js';

export class PacketLengths {
  /** body bytes of the current packet still to come */
  private skip = 0;
  /** 0: a packet's first byte is next; 1 to 4: its remaining length's bytes read so far */
  private lengthBytes = 0;
  private length = 0;
  /** a malformed length (more than 4 bytes): the parser refuses it, nothing is followed after it */
  private lost = false;

  constructor(private readonly max = MQTT_MAX_PACKET_BYTES) {}

  /** the next bytes of the connection: the remaining length of a packet over the limit, else undefined */
  over(chunk: Uint8Array): number | undefined {
    let i = 0;
    while (i < chunk.length && !this.lost) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, chunk.length - i);
        this.skip -= n;
        i += n;
      } else if (this.lengthBytes === 0) {
        // the fixed header's first byte (type and flags)
        this.lengthBytes = 1;
        this.length = 0;
        i++;
      } else {
        const b = chunk[i++]!;
        this.length += (b & 0x7f) * 128 ** (this.lengthBytes - 1);
        if ((b & 0x80) === 0) {
          if (this.length > this.max) return this.length;
          this.skip = this.length;
          this.lengthBytes = 0;
        } else if (++this.lengthBytes > 4) this.lost = true;
      }
    }
    return undefined;
  }
}
