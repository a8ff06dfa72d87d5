// "Test a rule" (beyond the spec): replays a device's stored points of the window through a private engine with the
// definition, in time order, and answers the moments it would have fired plus the watched series. Creates nothing:
// the private engine's state lives in memory and its firings are only collected.
import { RULE_TEST_POINTS, type RuleCondition } from '@sentra/contracts';
import { decodeValue } from '../telemetry/datatypes.js';
import type { TelemetryQuery } from '../telemetry/read/query.js';
import type { SeriesView } from '../telemetry/read/reads.js';
import { compileRule, selects, type EnginePoint } from './compile.js';
import { createRuleEngine, type EngineStateStore, type PersistedState } from './engine.js';

export interface RuleTestInput {
  appId: number;
  deviceId: number;
  category: number;
  condition: RuleCondition;
  start: number;
  end: number;
}

function memoryStore(): EngineStateStore {
  const m = new Map<string, PersistedState>();
  const k = (r: number, d: number) => `${r}:${d}`;
  return {
    all: async () => [...m.values()],
    ofDevice: async (d) => [...m.values()].filter((s) => s.deviceId === d),
    write: async (s) => void m.set(k(s.ruleId, s.deviceId), s),
    remove: async (r, d) => void m.delete(k(r, d)),
    removeRule: async () => m.clear(),
    removeDevice: async () => m.clear(),
  };
}

/** The watched series' points are read first (asynchronous, either engine), then replayed synchronously. */
export async function testRule(
  input: RuleTestInput,
  deps: { series: SeriesView[]; points: Pick<TelemetryQuery['points'], 'oldest'> },
) {
  const rule = compileRule({
    id: 1,
    appId: input.appId,
    category: input.category,
    name: 'test',
    key: null,
    description: '',
    condition: input.condition,
    action: { new: [], response: [] },
  });
  const clauses = [...rule.groups, ...(rule.clear ? [rule.clear] : [])].flatMap((g) =>
    g.deviceId === null || g.deviceId === input.deviceId ? g.clauses : [],
  );
  const watched =
    input.category === 11 || input.category === 12
      ? deps.series.filter((s) => clauses.some((c) => selects(c.sel, s.sensor, s.configtype, s.param, s.subparam)))
      : [];
  let truncated = false;
  const read = await Promise.all(
    watched.map((s) => deps.points.oldest(s.id, input.start, input.end, RULE_TEST_POINTS + 1)),
  );
  const series = watched.map((s, i) => {
    const rows = read[i]!;
    if (rows.length > RULE_TEST_POINTS) {
      truncated = true;
      rows.length = RULE_TEST_POINTS;
    }
    return {
      s,
      points: rows.map(([ts, num, text]) => ({
        ts,
        value: decodeValue(s.datatype, num, text) as number | string | boolean | null,
      })),
    };
  });
  // one message per timestamp: points of one device message share its time
  const byTs = new Map<number, EnginePoint[]>();
  for (const { s, points } of series) {
    for (const p of points) {
      let list = byTs.get(p.ts);
      if (!list) byTs.set(p.ts, (list = []));
      list.push({
        sensor: s.sensor,
        config: s.configtype,
        param: s.param,
        subparam: s.subparam,
        value: p.value,
        ts: p.ts,
      });
    }
  }
  const firings: Array<{
    ts: number;
    value: number | string | boolean | null;
    sensor: string;
    configtype: string;
    param: string;
  }> = [];
  let clock = input.start;
  const engine = createRuleEngine({
    store: memoryStore(),
    now: () => clock,
    onFire: async (f) =>
      void firings.push({
        ts: f.ts,
        value: (f.value ?? null) as number | string | boolean | null,
        sensor: f.point?.sensor ?? '',
        configtype: f.point?.config ?? '',
        param: f.point?.param ?? '',
      }),
  });
  try {
    engine.upsert(rule);
    for (const ts of [...byTs.keys()].sort((a, b) => a - b)) {
      clock = ts;
      engine.telemetry({ appId: input.appId, deviceId: input.deviceId, points: byTs.get(ts)! });
    }
  } finally {
    engine.close();
  }
  return {
    firings,
    series: series.map(({ s, points }) => ({
      sensor: s.sensor,
      configtype: s.configtype,
      param: s.subparam ? `${s.param}.${s.subparam}` : s.param,
      points,
    })),
    start: input.start,
    end: input.end,
    truncated,
  };
}
