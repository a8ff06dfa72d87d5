// A small levelled logger writing one line per event; enough for a gateway whose real output is metrics and data.
// Every field is escaped: a newline (or any other control character) in text a device or user sent — a refused
// topic, a client id, an error's message — shows as \n, never as the start of a line the reader would take for the
// gateway's own. An error's stack frames stay on their own lines (they are the code's, not a client's).
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
const escapeChar = (c: string) => {
  switch (c) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  }
};
/** text on one line: control characters (and Unicode's line separators) as escapes */
export const escapeLogText = (s: string): string => s.replace(CONTROL, escapeChar);

/** an error as its escaped name and message, then its stack frames (each a line of its own) */
function formatError(err: Error): string {
  const frames = (err.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  const cause = err.cause instanceof Error ? `\n  caused by ${formatError(err.cause)}` : '';
  return `${escapeLogText(`${err.name}: ${err.message}`)}${frames.length ? `\n${frames.join('\n')}` : ''}${cause}`;
}

export function createLogger(level: LogLevel = 'info', name = 'sentra'): Logger {
  const min = LEVELS[level];
  const at = (l: Exclude<LogLevel, 'silent'>) => (msg: string, extra?: unknown) => {
    if (LEVELS[l] < min) return;
    const line = `${new Date().toISOString()} ${l.toUpperCase()} [${name}] ${escapeLogText(String(msg))}`;
    const out = l === 'error' || l === 'warn' ? console.error : console.log;
    if (extra === undefined) out(line);
    // objects are printed by util.inspect, which quotes and escapes their strings
    else
      out(line, extra instanceof Error ? formatError(extra) : typeof extra === 'string' ? escapeLogText(extra) : extra);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
