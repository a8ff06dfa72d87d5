// What a test sink received, in order, and a wait for the first `n` of it: the mail and provider sinks share it.

export interface Recorder<T> {
  /** everything received so far (the sink's public list) */
  items: T[];
  /** records one and wakes the waits it completes */
  add(item: T): void;
  /** resolves with the first `n` once they arrived; rejects after `ms`, naming what arrived */
  waitFor(n: number, ms?: number): Promise<T[]>;
}

/** `what` names the sink and its items in a time-out, e.g. `mail sink` / `messages`. */
export function createRecorder<T>(what: { sink: string; items: string }): Recorder<T> {
  const items: T[] = [];
  const waiters = new Set<() => void>();
  return {
    items,
    add(item) {
      items.push(item);
      for (const w of waiters) w();
    },
    waitFor(n, ms = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (items.length < n) return;
          cleanup();
          resolve(items.slice(0, n));
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`${what.sink}: ${items.length} of ${n} ${what.items} after ${ms} ms`));
        }, ms);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
  };
}
