// A real SMTP server in the test process (smtp-server), on an ephemeral loopback port: it accepts what the gateway
// sends, parses it (mailparser) and keeps it for the test to assert. Point the gateway at it with `SMTP_URL: sink.url`.
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type AddressObject } from 'mailparser';
import { createRecorder } from './recorder.js';

export interface ReceivedMail {
  /** envelope sender and recipients (MAIL FROM / RCPT TO) */
  envelopeFrom: string;
  envelopeTo: string[];
  /** header From and To as text (`Sentra <alerts@example.com>`) and their addresses */
  from: string;
  fromAddress: string | undefined;
  to: string;
  toAddresses: string[];
  subject: string;
  text: string;
  headers: Map<string, unknown>;
  /** the user the client authenticated as, if it did */
  user: string | undefined;
}

export interface MailSink {
  port: number;
  /** smtp://127.0.0.1:port (with `user:pass@` when the sink requires a login) */
  url: string;
  messages: ReceivedMail[];
  /** resolves with the first `n` messages once they arrived; rejects after `ms` */
  waitFor(n: number, ms?: number): Promise<ReceivedMail[]>;
  /** the next `count` messages are refused at DATA with this SMTP code (550 permanent, 451 temporary) */
  refuseNext(count: number, code: number, message?: string): void;
  close(): Promise<void>;
}

function addresses(a: AddressObject | AddressObject[] | undefined): string[] {
  const list = a === undefined ? [] : Array.isArray(a) ? a : [a];
  return list.flatMap((x) => x.value.map((v) => v.address ?? '')).filter(Boolean);
}

function textOf(a: AddressObject | AddressObject[] | undefined): string {
  const list = a === undefined ? [] : Array.isArray(a) ? a : [a];
  return list.map((x) => x.text).join(', ');
}

export async function startMailSink(opts: { login?: { user: string; pass: string } } = {}): Promise<MailSink> {
  const recorder = createRecorder<ReceivedMail>({ sink: 'mail sink', items: 'messages' });
  let refuse: { count: number; code: number; message: string } | undefined;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: !opts.login,
    allowInsecureAuth: true,
    logger: false,
    size: 1024 * 1024,
    onAuth(auth, _session, cb) {
      if (!opts.login || (auth.username === opts.login.user && auth.password === opts.login.pass))
        return cb(null, { user: auth.username });
      cb(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, cb) {
      if (refuse && refuse.count > 0) {
        refuse.count--;
        stream.resume();
        stream.on('end', () => cb(Object.assign(new Error(refuse!.message), { responseCode: refuse!.code })));
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          recorder.add({
            envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            envelopeTo: session.envelope.rcptTo.map((r) => r.address),
            from: textOf(parsed.from),
            fromAddress: addresses(parsed.from)[0],
            to: textOf(parsed.to),
            toAddresses: addresses(parsed.to),
            subject: parsed.subject ?? '',
            text: (parsed.text ?? '').replace(/\n$/, ''),
            headers: parsed.headers,
            user: typeof session.user === 'string' ? session.user : undefined,
          });
          cb();
        })
        .catch((err: Error) => cb(err));
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => undefined);
  const port = ((server as unknown as { server: { address(): AddressInfo } }).server.address() as AddressInfo).port;
  const login = opts.login ? `${encodeURIComponent(opts.login.user)}:${encodeURIComponent(opts.login.pass)}@` : '';
  return {
    port,
    url: `smtp://${login}127.0.0.1:${port}`,
    messages: recorder.items,
    waitFor: recorder.waitFor,
    refuseNext(count, code, message = code >= 500 ? 'Mailbox unavailable' : 'Try again later') {
      refuse = { count, code, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
