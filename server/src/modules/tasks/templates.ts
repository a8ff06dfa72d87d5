// Message texts of a rule's actions: the `{{name}}` templates (contracts TEMPLATE_VARS) filled from the event, the
// device, the application and the task. Text only: the values are inserted as given, never interpreted.
import type { ActionTask, TemplateVar } from '@sentra/contracts';
import { taskMessage } from '../notifications/channels/index.js';
import type { OutboxMessage } from '../notifications/outbox.js';

export type TemplateValues = Partial<Record<TemplateVar, string | number | null | undefined>>;

/** one formatter per time zone (making one costs far more than using it); unknown zones fall back to UTC */
const formatters = new Map<string, Intl.DateTimeFormat>();
const FORMATTERS_MAX = 500;
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (f) return f;
  const make = (zone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
  try {
    f = make(timeZone);
  } catch {
    f = make('UTC');
  }
  // the zones are the applications' own (a few): the bound only guards against a flood of distinct ones
  if (formatters.size >= FORMATTERS_MAX) formatters.clear();
  formatters.set(timeZone, f);
  return f;
}

/** `DD/MM/YYYY HH:mm:ss` in the application's time zone (UTC when the zone is unknown to the runtime). */
export function formatTime(ts: number, timeZone: string): string {
  const parts = formatterOf(timeZone).formatToParts(new Date(ts));
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  return `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

/** A value as a message shows it: text as is, numbers and booleans as JSON writes them, nothing for none. */
export const valueText = (v: unknown): string =>
  v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v);

/** The outbox messages of one action group, rendered (each by its channel: notifications/channels/). */
export function renderGroup(
  group: readonly ActionTask[],
  values: TemplateValues,
  base: { tenantId: number; appId: number; taskId: number; ruleId: number | null; event: 'new' | 'response' },
): OutboxMessage[] {
  return group.map((a) => ({
    tenantId: base.tenantId,
    appId: base.appId,
    taskId: base.taskId,
    ruleId: base.ruleId ?? undefined,
    event: base.event,
    ...taskMessage(a, values),
  }));
}
