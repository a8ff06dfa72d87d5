// The command flow headless: every path of idle → confirming → sending → success / failed (offline, busy, timeout) → idle.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { Result, T } from '@sentra/contracts';
import {
  commandMachine,
  failureText,
  reasonOf,
  RESULT_SHOWN_MS,
  type CommandNotice,
  type CommandOutcome,
  type CommandRequest,
} from './command.machine.js';

const c = T.dashboards.commands;

function start(outcome: (req: CommandRequest) => Promise<CommandOutcome>, confirm = false) {
  const sent: CommandRequest[] = [];
  const notices: CommandNotice[] = [];
  const actor = createActor(
    commandMachine.provide({
      actors: { send: fromPromise<CommandOutcome, CommandRequest>(({ input }) => (sent.push(input), outcome(input))) },
    }),
    { input: { confirm } },
  );
  actor.on('notice', (n) => void notices.push(n));
  actor.start();
  return { actor, sent, notices, state: () => String(actor.getSnapshot().value) };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('command machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("sends, shows 'Kirim perintah berhasil' and returns to idle", async () => {
    const m = start(async () => ({ ok: true }));
    m.actor.send({ type: 'SEND', request: { value: 42 } });
    expect(m.state()).toBe('sending');
    await flush();
    expect(m.state()).toBe('success');
    expect(m.sent).toEqual([{ value: 42 }]);
    expect(m.notices).toEqual([{ type: 'notice', level: 'success', message: c.success }]);
    await vi.advanceTimersByTimeAsync(RESULT_SHOWN_MS);
    expect(m.state()).toBe('idle');
  });

  it.each([
    ['offline', 'Kirim perintah gagal (perangkat sedang offline)'],
    ['busy', 'Kirim perintah gagal (perangkat sibuk)'],
    ['timeout', 'Kirim perintah gagal (timeout)'],
    ['refused', 'Kirim perintah gagal (perangkat menolak perintah)'],
    ['other', 'Kirim perintah gagal'],
  ] as const)('fails with reason %s: "%s"', async (reason, text) => {
    const m = start(async () => ({ ok: false, reason }));
    m.actor.send({ type: 'SEND', request: {} });
    await flush();
    expect(m.state()).toBe('failed');
    expect(m.actor.getSnapshot().context.reason).toBe(reason);
    expect(m.notices.at(-1)).toEqual({ type: 'notice', level: 'error', message: text });
    await vi.advanceTimersByTimeAsync(RESULT_SHOWN_MS);
    expect(m.state()).toBe('idle');
  });

  it('treats a thrown send as a plain failure', async () => {
    const m = start(async () => {
      throw new Error('boom');
    });
    m.actor.send({ type: 'SEND', request: {} });
    await flush();
    expect(m.state()).toBe('failed');
    expect(m.notices.at(-1)?.message).toBe(c.failed);
  });

  it('asks first when the card needs confirmation; cancel sends nothing', async () => {
    const m = start(async () => ({ ok: true }), true);
    m.actor.send({ type: 'SEND', request: { value: true } });
    expect(m.state()).toBe('confirming');
    m.actor.send({ type: 'CANCEL' });
    expect(m.state()).toBe('idle');
    expect(m.sent).toEqual([]);
    m.actor.send({ type: 'SEND', request: { value: false } });
    m.actor.send({ type: 'CONFIRM' });
    await flush();
    expect(m.sent).toEqual([{ value: false }]);
    expect(m.state()).toBe('success');
  });

  it('ignores a second send while one is on its way, and accepts a new one after the outcome', async () => {
    let resolve!: (o: CommandOutcome) => void;
    const m = start(() => new Promise((r) => (resolve = r)));
    m.actor.send({ type: 'SEND', request: { value: 1 } });
    m.actor.send({ type: 'SEND', request: { value: 2 } });
    resolve({ ok: false, reason: 'busy' });
    await flush();
    expect(m.sent).toEqual([{ value: 1 }]);
    m.actor.send({ type: 'SEND', request: { value: 3 } });
    expect(m.state()).toBe('sending');
  });
});

describe('reasons of a failed call', () => {
  const answer = (code: number, result?: number, failure?: string) => ({
    code,
    failure,
    body: result === undefined ? null : { response_result: result },
  });
  it('reads -30 / -31 / -32 of an HTTP 400 and our own time-out of the 60 s call', () => {
    expect(reasonOf(answer(400, Result.DEVICE_OFFLINE))).toBe('offline');
    expect(reasonOf(answer(400, Result.DEVICE_BUSY))).toBe('busy');
    expect(reasonOf(answer(400, Result.DEVICE_TIMEOUT))).toBe('timeout');
    expect(reasonOf(answer(0, undefined, 'timeout'))).toBe('timeout');
    expect(reasonOf(answer(400, -33))).toBe('refused');
    expect(reasonOf(answer(500, -99))).toBe('other');
    expect(reasonOf(answer(200, -30))).toBe('other');
  });
  it('words them as section 8 does', () => {
    expect(failureText('timeout')).toBe(`${c.failed} ${c.timeout}`);
  });
});
