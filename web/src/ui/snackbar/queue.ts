// The notification rules of spec 01 section 8: at most 3 shown at once (the oldest gives way), no duplicates.
export type NoticeLevel = 'info' | 'success' | 'warning' | 'error';

export interface Notice {
  id: number;
  level: NoticeLevel;
  message: string;
}

export const MAX_VISIBLE = 3;

/** Adds a notice unless the same message is already shown; beyond `max`, the oldest leaves. */
export function pushNotice(shown: readonly Notice[], next: Notice, max = MAX_VISIBLE): Notice[] {
  if (shown.some((n) => n.message === next.message)) return shown as Notice[];
  const out = [...shown, next];
  return out.length > max ? out.slice(out.length - max) : out;
}

export function dismissNotice(shown: readonly Notice[], id: number): Notice[] {
  return shown.filter((n) => n.id !== id);
}
