import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLogger, escapeLogText } from './log.js';

afterEach(() => vi.restoreAllMocks());

describe('log lines', () => {
  it('escapes a newline in a field so that it cannot forge a line of its own', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(' ')));
    const log = createLogger('info');
    const topic = 'd/1/data\n2026-11-27T00:00:00.000Z ERROR [sentra] admin password reset';
    log.warn(`MQTT publish refused: device:1 on ${topic}`);
    log.error('write failed', new Error(`bad\r\ntopic ${topic}`));
    log.warn('extra', 'a\u0000b\u2028c');
    const printed = lines.join('\n').split('\n');
    // the forged text stays inside its line
    expect(printed.filter((l) => /^2026-11-27T00:00:00.000Z/.test(l))).toEqual([]);
    expect(printed[0]).toMatch(
      / WARN \[sentra\] MQTT publish refused: device:1 on d\/1\/data\\n2026-11-27T00:00:00.000Z ERROR/,
    );
    expect(printed[1]).toContain('Error: bad\\r\\ntopic d/1/data\\n2026');
    // the error's stack frames stay lines of their own
    expect(printed.some((l) => /^\s+at /.test(l))).toBe(true);
    expect(lines.at(-1)).toContain('a\\u0000b\\u2028c');
  });
  it('leaves ordinary text as it is', () => {
    expect(escapeLogText('Sentra console at http://127.0.0.1:8080/admin/login — ü')).toBe(
      'Sentra console at http://127.0.0.1:8080/admin/login — ü',
    );
  });
});
