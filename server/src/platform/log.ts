// A small levelled logger writing one line per event; enough for a gateway whose real output is metrics and data.
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, extra?: unknown): void;
  info(msg: string, extra?: unknown): void;
  warn(msg: string, extra?: unknown): void;
  error(msg: string, extra?: unknown): void;
}

export function createLogger(level: LogLevel = 'info', name = 'sentra'): Logger {
  const min = LEVELS[level];
  const at = (l: Exclude<LogLevel, 'silent'>) => (msg: string, extra?: unknown) => {
    if (LEVELS[l] < min) return;
    const line = `${new Date().toISOString()} ${l.toUpperCase()} [${name}] ${msg}`;
    const out = l === 'error' || l === 'warn' ? console.error : console.log;
    if (extra === undefined) out(line);
    else out(line, extra instanceof Error ? extra.stack ?? extra.message : extra);
  };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
