// The gateway's channels are derived from the contracts' descriptors: each has its transport and message here, the
// configuration reads its variables, a complete set of them makes its transport, half a set stops the start, and a
// rule's task of that channel becomes a message to its address.
import { CHANNEL_CODES, CHANNELS, channelOf } from '@sentra/contracts';
import { describe, expect, it } from 'vitest';
import { ConfigError, ConfigSchema, loadConfig } from '../../../platform/config.js';
import { CHANNEL_EXAMPLE_ENV } from './env.test-kit.js';
import { createTransports, SERVER_CHANNELS, taskMessage } from './index.js';

const envOf = (variables: readonly string[]) => Object.fromEntries(variables.map((v) => [v, CHANNEL_EXAMPLE_ENV[v]]));

describe('the gateway channels', () => {
  it('pair every channel of contracts with a transport and a message, and no other', () => {
    expect(Object.keys(SERVER_CHANNELS).sort()).toEqual([...CHANNEL_CODES].sort());
  });

  for (const c of CHANNELS) {
    describe(c.code, () => {
      it('has its variables read by the configuration, with an example here', () => {
        for (const name of Object.keys(c.settings)) expect(Object.keys(ConfigSchema.shape)).toContain(name);
        for (const v of c.variables) expect(CHANNEL_EXAMPLE_ENV, v).toHaveProperty(v);
        const config = loadConfig(envOf(c.variables));
        for (const v of c.variables) expect(config[v as keyof typeof config]).toBe(CHANNEL_EXAMPLE_ENV[v]);
      });

      it('has a transport exactly when its variables are all set', () => {
        const configured = createTransports(loadConfig(envOf(c.variables)));
        expect(configured[c.code]?.channel).toBe(c.code);
        configured[c.code]?.close?.();
        expect(Object.keys(createTransports(loadConfig({}))).includes(c.code)).toBe(c.variables.length === 0);
      });

      it('stops the start when only part of its variables is set, naming the missing ones', () => {
        if (c.variables.length < 2) return;
        const [first, ...rest] = c.variables;
        let thrown: unknown;
        try {
          loadConfig(envOf([first!]));
        } catch (e) {
          thrown = e;
        }
        expect(thrown).toBeInstanceOf(ConfigError);
        for (const v of rest)
          expect(String(thrown)).toContain(`${v}=undefined: required for ${c.envName} notifications`);
      });

      it('turns a rule task into a message to the task address', () => {
        const task = { type: c.code, [c.address.field]: c.address.example, content: 'Nilai {{value}}' };
        const m = taskMessage(task as never, { value: 42 });
        expect(m).toMatchObject({ channel: c.code, recipient: c.address.example });
        expect(m.body).toContain('42');
        expect(channelOf(c.code).address.schema.safeParse(m.recipient).success).toBe(true);
      });
    });
  }
});
