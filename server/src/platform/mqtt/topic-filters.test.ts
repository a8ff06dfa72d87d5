import { describe, expect, it } from 'vitest';
import { TopicFilters } from './topic-filters.js';

describe('topic filters', () => {
  it('matches exact levels, + for one level and # for the rest (the parent level included)', () => {
    const f = new TopicFilters();
    f.add('d/1/data');
    f.add('tele/+/SENSOR');
    f.add('application/7/#');
    expect(f.matches('d/1/data')).toBe(true);
    expect(f.matches('d/1/state')).toBe(false);
    expect(f.matches('d/1/data/x')).toBe(false);
    expect(f.matches('tele/plug/SENSOR')).toBe(true);
    expect(f.matches('tele/plug/STATE')).toBe(false);
    expect(f.matches('tele/a/b/SENSOR')).toBe(false);
    expect(f.matches('application/7/device/ab/event/up')).toBe(true);
    expect(f.matches('application/7')).toBe(true);
    expect(f.matches('application/8/x')).toBe(false);
  });

  it('keeps a filter added twice until it is removed twice, and prunes what is left empty', () => {
    const f = new TopicFilters();
    f.add('d/+/cmd');
    f.add('d/+/cmd');
    f.remove('d/+/cmd');
    expect(f.matches('d/3/cmd')).toBe(true);
    f.remove('d/+/cmd');
    expect(f.matches('d/3/cmd')).toBe(false);
    expect(f.size).toBe(0);
    f.remove('never/added');
    expect(f.size).toBe(0);
  });

  it('leaves $ topics to filters that name them', () => {
    const f = new TopicFilters();
    f.add('#');
    f.add('+/x');
    expect(f.matches('$SYS/x')).toBe(false);
    expect(f.matches('a/x')).toBe(true);
    f.add('$SYS/#');
    expect(f.matches('$SYS/x')).toBe(true);
  });

  it('tells when a filter is first held and when it is no longer held at all', () => {
    const seen: string[] = [];
    const f = new TopicFilters((filter, added) => seen.push(`${added ? '+' : '-'}${filter}`));
    f.add('d/+/status');
    f.add('d/+/status');
    f.add('d/#');
    f.remove('d/+/status');
    f.remove('never/added');
    f.remove('d/+/status');
    f.remove('d/+/status');
    expect(seen).toEqual(['+d/+/status', '+d/#', '-d/+/status']);
  });
});
