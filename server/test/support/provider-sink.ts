// A local HTTP server standing in for an SMS / WhatsApp provider or a webhook receiver: it records every request
// (method, path, headers, raw body, parsed form or JSON) and answers what the test says (status, body, delay).
// Point the gateway at it with SMS_API_URL / WHATSAPP_API_URL / a webhook recipient of `sink.url`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRecorder } from './recorder.js';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** the body parsed as a form (application/x-www-form-urlencoded) */
  form: Record<string, string>;
  /** the body parsed as JSON, when it is */
  json: unknown;
  at: number;
}

export interface ProviderAnswer {
  status?: number;
  body?: unknown;
  /** answer after this long (a slow provider); the request may be aborted meanwhile */
  delayMs?: number;
}

export interface ProviderSink {
  port: number;
  /** http://127.0.0.1:port */
  url: string;
  requests: RecordedRequest[];
  /** how the next requests are answered (default 201 `{"sid":"SM1"}`) */
  respond(answer: ProviderAnswer | ((req: RecordedRequest) => ProviderAnswer)): void;
  /** resolves with the first `n` requests once they arrived; rejects after `ms` */
  waitFor(n: number, ms?: number): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

const BODY_MAX = 1024 * 1024;

export async function startProviderSink(): Promise<ProviderSink> {
  const recorder = createRecorder<RecordedRequest>({ sink: 'provider sink', items: 'requests' });
  let answer: ProviderAnswer | ((req: RecordedRequest) => ProviderAnswer) = { status: 201, body: { sid: 'SM1' } };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= BODY_MAX) chunks.push(c);
    });
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body,
        form: Object.fromEntries(new URLSearchParams(body)),
        json,
        at: Date.now(),
      };
      recorder.add(recorded);
      const a = typeof answer === 'function' ? answer(recorded) : answer;
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
        res.end(a.body === undefined ? '' : JSON.stringify(a.body));
      };
      if (a.delayMs) setTimeout(send, a.delayMs).unref();
      else send();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests: recorder.items,
    respond(a) {
      answer = a;
    },
    waitFor: recorder.waitFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
