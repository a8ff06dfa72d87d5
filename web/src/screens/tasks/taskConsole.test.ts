import { describe, expect, it } from 'vitest';
import { T, type TaskEvent } from '@sentra/contracts';
import { quickActions, timelineLine } from './taskConsole.js';

const S = T.taskScreens;
const base: TaskEvent = {
  ts: 0,
  kind: 'created',
  status: null,
  previous: null,
  value: null,
  actor: null,
  channel: null,
  recipient: null,
  outcome: null,
  detail: null,
};

describe('quick actions of a task', () => {
  it.each([
    [1, ['take', 'solve']],
    [2, ['solve']],
    [3, ['take', 'solve']],
    [4, []],
    [5, []],
  ])('status %i offers %j', (status, expected) => {
    expect(quickActions(status)).toEqual(expected);
  });
});

describe('a timeline entry', () => {
  it('says who changed the status, from what to what', () => {
    expect(timelineLine({ ...base, kind: 'status', status: 2, previous: 1, actor: 'budi' }).text).toBe(
      'Status New → In progress oleh budi',
    );
  });
  it('tells the value the rule fired on', () => {
    expect(timelineLine({ ...base, value: '45' }).text).toBe(S.timelineCreated('45'));
    expect(timelineLine({ ...base, kind: 'occurrence', value: '47' }).text).toBe('Terjadi lagi (nilai 47)');
  });
  it('names the channel, the recipient, what became of the message and why it failed', () => {
    const line = timelineLine({
      ...base,
      kind: 'notification',
      channel: 'SMS',
      recipient: '+6281234567890',
      outcome: 'retry',
      detail: 'HTTP 503',
    });
    expect(line).toEqual({ text: 'SMS ke +6281234567890: gagal, dicoba lagi', color: 'warning', detail: 'HTTP 503' });
    expect(
      timelineLine({ ...base, kind: 'notification', channel: 'EMAIL', recipient: 'a@b.id', outcome: 'not_configured' })
        .text,
    ).toBe('Email ke a@b.id: belum diatur');
  });
});
