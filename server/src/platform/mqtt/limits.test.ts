import { describe, expect, it } from 'vitest';
import { MAX_CLIENT_ID_BYTES, validClientId, validFilter, validPublishTopic } from './limits.js';

describe('MQTT names as mosquitto takes them', () => {
  it('refuses a client id longer than 128 bytes or holding a control character', () => {
    expect(validClientId('DVES_1A2B3C')).toBe(true);
    expect(validClientId('ü'.repeat(MAX_CLIENT_ID_BYTES / 2))).toBe(true);
    expect(validClientId('ü'.repeat(MAX_CLIENT_ID_BYTES / 2 + 1))).toBe(false);
    expect(validClientId('x'.repeat(65535))).toBe(false);
    expect(validClientId('a\u0000b')).toBe(false);
    expect(validClientId('a\nb')).toBe(false);
    expect(validClientId('a\u0085b')).toBe(false);
    expect(validClientId('a\uffffb')).toBe(false);
  });
  it('refuses a publish topic with U+0000, a newline, a wildcard or more than 200 levels', () => {
    expect(validPublishTopic('d/42/data')).toBe(true);
    expect(validPublishTopic('tele/lampu-ü/SENSOR')).toBe(true);
    expect(validPublishTopic('d/42\u0000/data')).toBe(false);
    expect(validPublishTopic('d/42/data\n2026-01-01 ERROR forged')).toBe(false);
    expect(validPublishTopic('d/+/data')).toBe(false);
    expect(validPublishTopic('d/#')).toBe(false);
    expect(validPublishTopic('')).toBe(false);
    expect(validPublishTopic(Array(200).fill('a').join('/'))).toBe(true);
    expect(validPublishTopic(Array(201).fill('a').join('/'))).toBe(false);
  });
  it("refuses a filter whose wildcards are not alone in their level, or '#' not last", () => {
    for (const ok of ['d/+/data', 'd/#', '#', '+/+', 'd/42/cmd']) expect(validFilter(ok), ok).toBe(true);
    for (const bad of ['d/#/x', 'd/a#', 'd/a+/x', 'd/\u0000', '']) expect(validFilter(bad), bad).toBe(false);
  });
});
