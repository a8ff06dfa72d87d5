// The one notification queue of the console: anything (screens, machines, the request layer) pushes; the host shows.
// A notice pushed `about(topic)` replaces the earlier notice of that topic (its pending notice, a stale failure).
import { dismissNotice, dropTopic, pushNotice, type Notice, type NoticeLevel } from './queue.js';

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
    push(level: NoticeLevel, message: string, topic?: string) {
      set(pushNotice(shown, { id: ++seq, level, message, ...(topic === undefined ? {} : { topic }) }));
    },
    info: (m: string, topic?: string) => notices.push('info', m, topic),
    success: (m: string, topic?: string) => notices.push('success', m, topic),
    warning: (m: string, topic?: string) => notices.push('warning', m, topic),
    error: (m: string, topic?: string) => notices.push('error', m, topic),
    /** notices about one action: each replaces the previous one about it (pending → result, failure → success) */
    about: (topic: string) => ({
      info: (m: string) => notices.push('info', m, topic),
      success: (m: string) => notices.push('success', m, topic),
      warning: (m: string) => notices.push('warning', m, topic),
      error: (m: string) => notices.push('error', m, topic),
      /** the action ended with nothing to say (a file saved): its pending notice goes */
      settle: () => set(dropTopic(shown, topic)),
    }),
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
