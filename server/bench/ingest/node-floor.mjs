// Node's floor under the broker thread (`npm run bench -- broker_floor`): what floor.c does (CONNACK, a PUBACK per QoS 1
// PUBLISH, PINGRESP; nothing parsed beyond the fixed header), with Node's own net sockets: a `data` event per read and
// one `write()` per read's answers. Against floor.c it is what Node's socket layer costs; against the broker thread,
// what aedes and the gateway's own code cost. Same protocol as floor.c on stdin/stdout ({"port"}, `mark`, `quit`).
// Plain JavaScript, no imports beyond Node: it runs as its own process, started with `node`.
import net from 'node:net';
import readline from 'node:readline';

let messages = 0;
const server = net.createServer((socket) => {
  socket.on('error', () => {});
  socket.on('data', (buf) => {
    const out = [];
    let at = 0;
    while (at + 2 <= buf.length) {
      const head = buf[at];
      let length = 0;
      let mul = 1;
      let k = at + 1;
      while (k < buf.length && k < at + 5) {
        const b = buf[k++];
        length += (b & 127) * mul;
        mul *= 128;
        if (!(b & 128)) break;
      }
      const end = k + length;
      if (end > buf.length) break;
      const type = head >> 4;
      if (type === 1) out.push(0x20, 2, 0, 0);
      else if (type === 3) {
        messages++;
        if ((head >> 1) & 3 && k + 2 <= end) {
          const id = k + 2 + buf.readUInt16BE(k);
          if (id + 2 <= end) out.push(0x40, 2, buf[id], buf[id + 1]);
        }
      } else if (type === 12) out.push(0xd0, 0);
      at = end;
    }
    if (out.length > 0) socket.write(Buffer.from(out));
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`));
const limit = setTimeout(() => process.exit(0), Number(process.env.BENCH_FLOOR_LIMIT_S ?? 600) * 1000);
limit.unref();
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line === 'quit') process.exit(0);
  if (line === 'mark') {
    const cpu = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ messages, cpu_us: cpu.user + cpu.system })}\n`);
  }
});
