// Message templates: `{{name}}` filled from the event as text, the time in the application's zone.
import { describe, expect, it } from 'vitest';
import { RuleAddBody, renderTemplate } from '@sentra/contracts';
import { formatTime, renderGroup } from './templates.js';

describe('templates', () => {
  it('fills known names, leaves absent ones empty, and inserts values as text (no markup interpreted)', () => {
    expect(
      renderTemplate('{{device.name}}: {{ value }} {{sensor}}', { 'device.name': '<b>Genset</b>', value: 12.5 }),
    ).toBe('<b>Genset</b>: 12.5 ');
    expect(renderTemplate('{{value}}{{value}}', { value: '{{device.name}}' })).toBe('{{device.name}}{{device.name}}');
  });

  it('writes the time in the application time zone as DD/MM/YYYY HH:mm:ss', () => {
    const ts = Date.UTC(2026, 10, 27, 17, 5, 9);
    expect(formatTime(ts, 'Asia/Jakarta')).toBe('28/11/2026 00:05:09');
    expect(formatTime(ts, 'UTC')).toBe('27/11/2026 17:05:09');
    expect(formatTime(ts, 'Not/AZone')).toBe('27/11/2026 17:05:09');
  });

  it('renders every task of a group into outbox messages', () => {
    const msgs = renderGroup(
      [
        { type: 'EMAIL', email: 'ops@contoh.id', subject: 'BBM {{device.name}}', content: '{{value}} %' },
        { type: 'WHATSAPP', phone: '+6281234567890', content: 'Tugas {{task.id}}' },
        { type: 'WEBHOOK', url: 'https://hook.contoh.id/x', content: 'v={{value}}' },
      ],
      { 'device.name': 'Genset A', value: 12, 'task.id': 9 },
      { tenantId: 1, appId: 2, taskId: 9, ruleId: 4, event: 'new' },
    );
    expect(msgs[0]).toMatchObject({
      channel: 'EMAIL',
      recipient: 'ops@contoh.id',
      subject: 'BBM Genset A',
      body: '12 %',
      taskId: 9,
      event: 'new',
    });
    expect(msgs[1]).toMatchObject({ channel: 'WHATSAPP', recipient: '+6281234567890', body: 'Tugas 9' });
    expect(JSON.parse(msgs[2]!.body)).toMatchObject({ 'device.name': 'Genset A', value: 12, text: 'v=12' });
  });

  it('takes an EMAIL without a subject, and gives a message with a blank content the default text, never an empty one', () => {
    const r = RuleAddBody.safeParse({
      name: 'x',
      category: 111,
      condition: {},
      action: {
        new: [
          { type: 'EMAIL', email: 'a@contoh.id' },
          { type: 'EMAIL', email: 'b@contoh.id', subject: '  ', content: '' },
          { type: 'SMS', phone: '+6281234567890', content: ' ' },
          { type: 'WHATSAPP', phone: '+6281234567890' },
        ],
      },
    });
    expect(r.success).toBe(true);
    const values = {
      'task.title': 'Tangki rendah',
      'rule.name': 'BBM',
      'device.name': 'Genset A',
      'device.serial': 'GA-1',
      sensor: 'tank',
      param: 'level',
      value: 12,
      time: '28/11/2026 00:05:09',
      'task.status': 'New',
    };
    const msgs = renderGroup(r.data!.action.new, values, { tenantId: 1, appId: 2, taskId: 9, ruleId: 4, event: 'new' });
    const body =
      'Tangki rendah\nRule: BBM\nPerangkat: Genset A (GA-1)\nData: tank level = 12\nWaktu: 28/11/2026 00:05:09\nStatus tugas: New';
    expect(msgs.map((m) => [m.subject, m.body])).toEqual([
      ['[Sentra] Tangki rendah', body],
      ['[Sentra] Tangki rendah', body],
      [undefined, body],
      [undefined, body],
    ]);
  });

  it('refuses an unknown template name when the rule is saved', () => {
    const r = RuleAddBody.safeParse({
      name: 'x',
      category: 111,
      condition: {},
      action: { new: [{ type: 'EMAIL', email: 'a@contoh.id', subject: '{{device.nama}}', content: 'x' }] },
    });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]).toMatchObject({
      path: ['action', 'new', 0, 'subject'],
      message: 'Variabel template tidak dikenal: {{device.nama}}',
    });
  });
});
