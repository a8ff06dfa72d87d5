// An allow-list of hosts the gateway may fetch from (WEBSERVICE_ALLOW): comma-separated `host`, `host:port`,
// `*.domain` or `[ipv6]`, with an optional port. Parsed once at start by the configuration: a malformed entry stops
// the gateway naming it, rather than being dropped and leaving the operator wondering why a card is refused.

export interface AllowEntry {
  host: string;
  port?: string;
  wildcard: boolean;
}

const NAME = /^(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/;
const IPV6 = /^\[[0-9a-f:]+\](:\d{1,5})?$/;

/** `a.example.com, 127.0.0.1:8081, *.example.org` → entries; blanks are skipped, a malformed entry is an error. */
export function parseHostAllowList(raw: string): { ok: true; list: AllowEntry[] } | { ok: false; error: string } {
  const list: AllowEntry[] = [];
  for (const item of raw.split(',')) {
    const s = item.trim().toLowerCase();
    if (!s) continue;
    if (!NAME.test(s) && !IPV6.test(s))
      return { ok: false, error: `"${item.trim()}" is not a host, host:port, *.domain or [ipv6] address` };
    const wildcard = s.startsWith('*.');
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(wildcard ? s.slice(2) : s)!;
    list.push({ host: m[1]!, port: m[2], wildcard });
  }
  return { ok: true, list };
}

/** Whether an address may be fetched: http(s), no credentials in it, its host (and port when the entry names one) allowed. */
export function isAllowed(address: string, allow: readonly AllowEntry[]): boolean {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.username || url.password) return false;
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allow.some(
    (e) => (e.wildcard ? host.endsWith(`.${e.host}`) : host === e.host) && (e.port === undefined || e.port === port),
  );
}
