import { describe, expect, it } from 'vitest';
import { ConfDashboard } from './confDashboard.js';
import { templateDashboard } from './templates.js';

describe('dashboard templates', () => {
  it('is a valid version 2 dashboard the server accepts, titled as asked', () => {
    const parsed = ConfDashboard.safeParse(templateDashboard('Ringkasan Energy'));
    expect(parsed.success, JSON.stringify(parsed.error?.issues)).toBe(true);
    expect(parsed.data!.dashboard!.title!.view).toMatchObject({ title: 'Ringkasan Energy' });
  });
  it('reads the whole application (no device ids): the count, the online count and the map', () => {
    const conf = templateDashboard('x');
    expect(JSON.stringify(conf)).not.toContain('device_id');
    expect(Object.values(conf.dashboard!).map((c) => c.cat)).toEqual([
      'TITLE',
      'SINGLE_VALUE_CARD',
      'SINGLE_VALUE_CARD',
      'MAP_CARD',
    ]);
  });
});
