// The notification rules of spec 01 section 8: at most 3 shown at once (the oldest gives way), no duplicates.
export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  id: number;
  level: NoticeLevel;
  message: string;
  /**
   * what the notice is about (one action on one thing, e.g. `config:12:hvac/config/setpoint`): a newer notice about
   * the same topic replaces it, so a result takes the place of its pending notice or of an earlier attempt's failure
   */
  topic?: string;
  /** times the same message was pushed again while shown: each one restarts its time on screen */
  renewals?: number;
}

export const MAX_VISIBLE = 3;

/**
 * Adds a notice; beyond `max`, the oldest leaves. The same message already shown is not added twice: that one is
 * renewed instead, so what just happened (a second device added within seconds of the first) is confirmed for the
 * full time, not by a notice about to close. A notice with a topic first removes the other notices of that topic.
 */
export function pushNotice(shown: readonly Notice[], next: Notice, max = MAX_VISIBLE): Notice[] {
  if (next.topic !== undefined) {
    const stale = shown.filter((n) => n.topic === next.topic && n.message !== next.message);
    if (stale.length) shown = shown.filter((n) => !stale.includes(n));
  }
  const same = shown.findIndex((n) => n.message === next.message);
  if (same >= 0) return shown.map((n, i) => (i === same ? { ...n, renewals: (n.renewals ?? 0) + 1 } : n));
  const out = [...shown, next];
  return out.length > max ? out.slice(out.length - max) : out;
}

export function dismissNotice(shown: readonly Notice[], id: number): Notice[] {
  return shown.filter((n) => n.id !== id);
}

/** takes away the notices of a topic (a pending notice whose action ended without a notice of its own) */
export function dropTopic(shown: readonly Notice[], topic: string): Notice[] {
  return shown.some((n) => n.topic === topic) ? shown.filter((n) => n.topic !== topic) : (shown as Notice[]);
}
