// The channel lists are derived from the descriptors: every registered channel is a task type and a notification
// channel, its task validates with its address, and its variables are among the settings the gateway reads.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ActionTask, TASK_TYPES } from '../models/rule.js';
import { NOTIFICATION_CHANNELS, notificationChannel, recipientSchema } from '../models/notifications.js';
import {
  CHANNEL_CODES,
  CHANNEL_SECRETS,
  CHANNEL_SETTINGS,
  CHANNEL_TASK_FIELDS,
  CHANNEL_VARIABLES,
  CHANNELS,
  channelLabel,
  channelOf,
} from './index.js';

describe('the notification channels', () => {
  it('are the task types and the notification channels, in the registry order, each once', () => {
    const codes = CHANNELS.map((c) => c.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect([...TASK_TYPES]).toEqual(codes);
    expect([...NOTIFICATION_CHANNELS]).toEqual(codes);
    expect(notificationChannel.options).toEqual(codes);
  });

  for (const c of CHANNELS) {
    describe(c.code, () => {
      it('has a name, an address field with its rule, and is found by its code', () => {
        expect(channelOf(c.code)).toBe(c);
        expect(channelLabel(c.code)).toBe(c.label);
        expect(c.label.trim()).not.toBe('');
        expect(c.address.label.trim()).not.toBe('');
        expect(recipientSchema(c.code)).toBe(c.address.schema);
        expect(c.address.schema.safeParse(c.address.example).success).toBe(true);
        expect(c.address.schema.safeParse('').success).toBe(false);
        for (const f of [c.address, ...c.optional]) expect(CHANNEL_TASK_FIELDS).toContain(f.field);
      });

      it('is a rule task: its address required, its optional fields and content optional, other fields left out', () => {
        const task = { type: c.code, [c.address.field]: c.address.example };
        expect(ActionTask.parse(task)).toEqual(task);
        const full = {
          ...task,
          ...Object.fromEntries(c.optional.map((o) => [o.field, 'x'])),
          content: 'Nilai {{value}}',
        };
        expect(ActionTask.parse(full)).toEqual(full);
        expect(ActionTask.safeParse({ type: c.code }).success).toBe(false);
        const others = CHANNEL_TASK_FIELDS.filter(
          (f) => f !== c.address.field && !c.optional.some((o) => o.field === f),
        );
        for (const f of others) expect(ActionTask.parse({ ...task, [f]: 'x' })).not.toHaveProperty(f);
      });

      it('is configured by variables among the settings, all or none, its secrets among them too', () => {
        expect(CHANNEL_VARIABLES[c.code]).toEqual(c.variables);
        for (const v of [...c.variables, ...c.secrets]) expect(Object.keys(c.settings)).toContain(v);
        for (const [name, schema] of Object.entries(c.settings)) expect(CHANNEL_SETTINGS[name as never]).toBe(schema);
        for (const s of c.secrets) expect(CHANNEL_SECRETS).toContain(s);
        // a variable that configures a channel may be left unset (the channel stays unconfigured)
        const settings: Record<string, z.ZodType> = c.settings;
        for (const v of c.variables) expect(settings[v]!.safeParse(undefined).success).toBe(true);
      });
    });
  }

  it('refuses a task type no channel has, naming the channels', () => {
    const r = ActionTask.safeParse({ type: 'TELEGRAM', chat: '1' });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.message).toBe(
      `type harus ${CHANNEL_CODES.slice(0, -1).join(', ')} atau ${CHANNEL_CODES.at(-1)}`,
    );
    expect(r.error?.issues[0]?.message).toBe('type harus EMAIL, WHATSAPP, SMS atau WEBHOOK');
  });
});
