// Test support: raw MQTT bytes for tests and the ingest benchmark's lean clients, which speak to the broker below a
// client library (a packet's header announcing any length). Never imported by the gateway itself.

/** The fixed header of a packet (first byte `first`) announcing `length` bytes (MQTT's variable byte integer). */
export function fixedHeader(first: number, length: number): Buffer {
  const bytes = [first];
  do {
    let byte = length % 128;
    length = Math.floor(length / 128);
    if (length > 0) byte |= 0x80;
    bytes.push(byte);
  } while (length > 0);
  return Buffer.from(bytes);
}
