// The one notification queue of the console: anything (screens, machines, the request layer) pushes; the host shows.
import { dismissNotice, pushNotice, type Notice, type NoticeLevel } from './queue.js';

type Listener = () => void;

function createNotices() {
  let shown: Notice[] = [];
  let seq = 0;
  const listeners = new Set<Listener>();
  const set = (next: Notice[]) => {
    if (next === shown) return;
    shown = next;
    listeners.forEach((l) => l());
  };
  return {
    push(level: NoticeLevel, message: string) {
      set(pushNotice(shown, { id: ++seq, level, message }));
    },
    info: (m: string) => notices.push('info', m),
    success: (m: string) => notices.push('success', m),
    warning: (m: string) => notices.push('warning', m),
    error: (m: string) => notices.push('error', m),
    dismiss(id: number) {
      set(dismissNotice(shown, id));
    },
    snapshot: () => shown,
    subscribe(l: Listener) {
      listeners.add(l);
      return () => void listeners.delete(l);
    },
  };
}

export const notices = createNotices();
