import { describe, expect, it } from 'vitest';
import { Fifo } from './fifo.js';

describe('Fifo', () => {
  it('keeps order across the compaction of its shifted head', () => {
    const f = new Fifo<number>();
    for (let i = 0; i < 5000; i++) f.push(i);
    for (let i = 0; i < 3000; i++) expect(f.shift()).toBe(i);
    f.push(5000);
    expect(f.length).toBe(2001);
    let last = 2999;
    for (let v = f.shift(); v !== undefined; v = f.shift()) expect(v).toBe(++last);
    expect(last).toBe(5000);
  });

  it('shows its oldest item without taking it', () => {
    const f = new Fifo<string>();
    expect(f.peek()).toBeUndefined();
    f.push('a');
    f.push('b');
    expect(f.peek()).toBe('a');
    expect(f.length).toBe(2);
    f.shift();
    expect(f.peek()).toBe('b');
  });
});
