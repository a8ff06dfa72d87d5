import { afterEach, describe, expect, it, vi } from 'vitest';
import { required } from './required.js';

describe('a suite that needs a component of the machine', () => {
  afterEach(() => void vi.unstubAllEnvs());
  it('runs when the component is there', () => {
    vi.stubEnv('SENTRA_CI', '1');
    expect(required('nats-server', true)).toBe(true);
  });
  it('is skipped, and says so, outside CI when the component is missing', () => {
    vi.stubEnv('SENTRA_CI', '');
    const said = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    expect(required('nats-server', false, 'apt-get install nats-server')).toBe(false);
    expect(String(said.mock.calls[0]?.[0])).toContain('nats-server is missing (apt-get install nats-server)');
    said.mockRestore();
  });
  it('fails the run in CI when the component is missing', () => {
    vi.stubEnv('SENTRA_CI', '1');
    expect(() => required('the native reader', false)).toThrow(/the native reader is missing: CI needs it/);
  });
});
