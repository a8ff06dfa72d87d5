// The configuration rows of an uploaded CSV: a header with sensor, config (or configtype), param and value, then one
// configuration per line. Values that read as numbers or booleans are sent as such.
export interface ConfigRow {
  sensor: string;
  configtype: string;
  param: string;
  value: unknown;
}

function splitLine(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') ((cur += '"'), i++);
      else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',' || ch === ';') (out.push(cur), (cur = ''));
    else cur += ch;
  }
  out.push(cur);
  return out.map((s) => s.trim());
}

const typed = (s: string): unknown =>
  /^-?\d+(\.\d+)?$/.test(s) ? Number(s) : s === 'true' ? true : s === 'false' ? false : s;

/** The rows, or null when the header lacks a column. At most 500 rows (a configuration, not a data import). */
export function parseConfigCsv(text: string): ConfigRow[] | null {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  if (lines.length < 2) return null;
  const head = splitLine(lines[0]!).map((h) => h.toLowerCase());
  const col = (...names: string[]) => head.findIndex((h) => names.includes(h));
  const [s, c, p, v] = [col('sensor'), col('config', 'configtype'), col('param'), col('value')];
  if (s < 0 || c < 0 || p < 0 || v < 0) return null;
  const rows: ConfigRow[] = [];
  for (const line of lines.slice(1, 501)) {
    const f = splitLine(line);
    if (!f[s] || !f[c] || !f[p] || f[v] === undefined || f[v] === '') return null;
    rows.push({ sensor: f[s]!, configtype: f[c]!, param: f[p]!, value: typed(f[v]!) });
  }
  return rows;
}
