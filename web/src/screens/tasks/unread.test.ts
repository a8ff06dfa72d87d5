import { afterEach, describe, expect, it } from 'vitest';
import { unreadTasks } from './unread.js';

afterEach(() => {
  unreadTasks.showList()();
});

describe('unread tasks of the Tugas menu entry', () => {
  it('counts tasks created while the list is not shown, and clears when it is', () => {
    unreadTasks.created();
    unreadTasks.created(2);
    expect(unreadTasks.count()).toBe(3);
    const hide = unreadTasks.showList();
    expect(unreadTasks.count()).toBe(0);
    unreadTasks.created();
    expect(unreadTasks.count()).toBe(0);
    hide();
    unreadTasks.created();
    expect(unreadTasks.count()).toBe(1);
  });

  it('tells its listeners', () => {
    let calls = 0;
    const stop = unreadTasks.subscribe(() => calls++);
    unreadTasks.created();
    unreadTasks.showList()();
    stop();
    unreadTasks.created();
    expect(calls).toBe(2);
  });
});
