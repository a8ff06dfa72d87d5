import { describe, expect, it } from 'vitest';
import { PacketLengths } from './packet-lengths.js';
import { fixedHeader } from './testing/packets.js';

const header = (first: number, length: number) => [...fixedHeader(first, length)];
const packet = (length: number) => Buffer.from([...header(0x30, length), ...new Array<number>(length).fill(0xff)]);

describe('PacketLengths', () => {
  it('follows packets across chunks, any split, and lets every one up to the limit through', () => {
    const bytes = Buffer.concat([packet(0), packet(3), packet(127), packet(128), packet(1000)]);
    for (const size of [1, 2, 5, 64, bytes.length]) {
      const lengths = new PacketLengths(1000);
      for (let i = 0; i < bytes.length; i += size) expect(lengths.over(bytes.subarray(i, i + size))).toBeUndefined();
    }
  });

  it('refuses a packet over the limit once its header is read, whatever came before it', () => {
    const lengths = new PacketLengths(1000);
    expect(lengths.over(packet(10))).toBeUndefined();
    const big = header(0x30, 10 * 1024 * 1024);
    expect(lengths.over(Buffer.from(big.slice(0, 2)))).toBeUndefined();
    expect(lengths.over(Buffer.from(big.slice(2)))).toBe(10 * 1024 * 1024);
    expect(new PacketLengths(1000).over(Buffer.from(header(0x10, 1001)))).toBe(1001);
    expect(new PacketLengths(1000).over(Buffer.from([0x30, 0xff, 0xff, 0xff, 0x7f]))).toBe(268_435_455);
  });

  it('stops following a connection whose length is malformed (the parser refuses it)', () => {
    const lengths = new PacketLengths(1000);
    expect(lengths.over(Buffer.from([0x30, 0xff, 0xff, 0xff, 0xff, 0x7f]))).toBeUndefined();
    expect(lengths.over(Buffer.from(header(0x30, 5000)))).toBeUndefined();
  });
});
