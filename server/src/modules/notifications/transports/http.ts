// A bounded HTTP POST for the provider transports: one deadline over connect, request and answer, an abort signal,
// an answer read up to 8 KB, no redirects followed. node:http (not fetch) so the webhook can vet the address it
// actually connects to (`lookup`).
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { DeliveryError, clipLine } from './transport.js';

/** a provider request as the transports build it (the request tests read these) */
export interface ProviderRequest {
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface HttpAnswer {
  status: number;
  body: string;
}

export interface PostOptions {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  signal: AbortSignal;
  lookup?: LookupFunction;
}

const ANSWER_MAX = 8 * 1024;

export function post(url: URL, opts: PostOptions): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    if (opts.signal.aborted) return reject(new DeliveryError('aborted: the gateway is shutting down'));
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method: 'POST',
      headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
      lookup: opts.lookup,
      agent: false,
    });
    const deadline = setTimeout(
      () => req.destroy(new DeliveryError(`no answer within ${opts.timeoutMs} ms`)),
      opts.timeoutMs,
    );
    const onAbort = () => req.destroy(new DeliveryError('aborted: the gateway is shutting down'));
    opts.signal.addEventListener('abort', onAbort, { once: true });
    const done = () => {
      clearTimeout(deadline);
      opts.signal.removeEventListener('abort', onAbort);
    };
    req.on('error', (err) => {
      done();
      reject(err);
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size >= ANSWER_MAX) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= ANSWER_MAX) res.destroy();
      });
      const finish = () => {
        done();
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8').slice(0, ANSWER_MAX) });
      };
      res.on('end', finish);
      res.on('close', finish);
      res.on('error', finish);
    });
    req.end(opts.body);
  });
}

/**
 * 2xx is accepted; 408, 429 and 5xx are worth retrying; any other answer (400 bad number, 401 wrong token, 404 wrong
 * account) will not change on a retry and fails the message at once.
 */
export function checkAnswer(provider: string, answer: HttpAnswer): void {
  if (answer.status >= 200 && answer.status < 300) return;
  const retry = answer.status === 408 || answer.status === 429 || answer.status >= 500;
  const detail = clipLine(answer.body, 300);
  throw new DeliveryError(`${provider} answered HTTP ${answer.status}${detail ? `: ${detail}` : ''}`, {
    permanent: !retry,
  });
}
