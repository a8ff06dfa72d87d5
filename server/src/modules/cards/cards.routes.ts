// The card calls: GET `/fetch/web/g/{dashboardId}/{componentKey}` (live data), GET `/fetch/web/file/csv/card/...`
// (points as CSV, streamed) and POST `/fetch/web/p/...` (a control card's command through the command path).
import {
  QueryEntity,
  Result,
  T,
  cardCsvFileName,
  cardsContract,
  type CardFilterQuery,
  type Component,
} from '@sentra/contracts';
import { ApiError, fail, invalid, notFound } from '../../platform/http/errors.js';
import type { BoundRoute, Caller, Handler } from '../../platform/http/mount.js';
import { componentForCall, evaluateCard, filterOf, overrides } from './cardData.js';
import { commandsByTags, isCommandCard } from './cardKinds.js';
import { CardError, VariableScope, type EvalContext } from './cardQuery.js';
import type { CardEngine } from './cards.module.js';
import { csvColumns, streamCsv } from './csv.js';
import { FilterError, resolveWindow } from './filters.js';

/** What the command path answers for one device: ok, or a failure code (-30 offline, -31 busy, -32 timeout, …). */
export type CommandOutcome = { ok: true } | { ok: false; code: number; message?: string };
export type CardCommandSender = (cmd: {
  caller: Caller;
  appId: number;
  deviceId: number;
  sensor: string;
  configtype: string;
  param: string;
  value: unknown;
}) => Promise<CommandOutcome>;

const COMMAND_FANOUT = 16;
const c = T.dashboards.commands;

/** 'Kirim perintah gagal' with the reason the spec gives for the code. */
export function commandFailure(code: number): string {
  const reason =
    code === Result.DEVICE_OFFLINE
      ? c.offline
      : code === Result.DEVICE_BUSY
        ? c.busy
        : code === Result.DEVICE_TIMEOUT
          ? c.timeout
          : '';
  return reason ? `${c.failed} ${reason}` : c.failed;
}

function route<D extends (typeof cardsContract)[keyof typeof cardsContract]>(
  def: D,
  handler: Handler<D>,
  hot?: boolean,
): BoundRoute {
  return { def, handler: handler as unknown as Handler<typeof def>, hot } as BoundRoute;
}

export function cardsRoutes({
  engine,
  sendCommand,
}: {
  engine: CardEngine;
  sendCommand?: CardCommandSender;
}): BoundRoute[] {
  const routes: BoundRoute[] = [
    // hot (mount.ts): every viewer asks each card of a dashboard every few seconds; the answers are the answer cache's
    // objects, shared and never changed
    route(
      cardsContract.get,
      ({ input, caller }) => {
        // a dashboard, grants and answer held in memory answer at once (no promise: a LATEST GET's common case)
        const view = engine.source.viewNow(caller, input.dashboardId);
        if (!view)
          return engine.source
            .dashboard(caller, input.dashboardId)
            .then((v) => engine.evaluate(caller, v, input.componentKey, input))
            .then((r) => r.data);
        const answer = engine.answerNow(caller, view, input.componentKey, input);
        return answer instanceof Promise ? answer.then((r) => r.data) : answer.data;
      },
      true,
    ),
    // the same dashboard and grants checks as the card query (another application's dashboard 404, outside the
    // caller's grants 403); the unsaved component reads the dashboard's variables and filters as it will once saved
    route(cardsContract.preview, async ({ input, caller }) => {
      const view = await engine.source.dashboard(caller, input.dashboardId);
      const { dashboardId: _id, component, ...query } = input;
      const app = caller.app!;
      return (
        await evaluateCard(engine.src, {
          component,
          conf: view.conf,
          appId: app.id,
          tz: app.timezone,
          now: Date.now(),
          query,
        })
      ).data;
    }),
    route(cardsContract.csv, async ({ input, caller, res }) => {
      const view = await engine.source.dashboard(caller, input.dashboardId);
      const component = componentForCall(view, input.componentKey);
      const app = caller.app!;
      const ctx = contextOf(engine, app.id, app.timezone, component, view.conf, input);
      const queries = (['value', 'output', 'status', 'latitude', 'longitude'] as const)
        .map((role) => component.model?.[role])
        .filter((q) => q !== undefined)
        .map((q) => QueryEntity.safeParse(q))
        .filter((p) => p.success)
        .map((p) => p.data!);
      let start: number;
      let end: number;
      let columns: Awaited<ReturnType<typeof csvColumns>>;
      try {
        columns = await csvColumns(queries, ctx);
        const w = resolveWindow(filterOf(component, view.conf, input, true), ctx.now, app.timezone, false);
        if (w.type === 'REALTIME') {
          end = ctx.now + 1;
          start = end;
          for (const col of columns.columns) {
            if (!col.series) continue;
            const rows = await engine.src.reads.latestN(col.series, w.ndata);
            if (rows.length) start = Math.min(start, rows[0]![0]);
          }
        } else ({ start, end } = w);
      } catch (err) {
        if (err instanceof CardError || err instanceof FilterError) throw invalid(err.message);
        throw err;
      }
      const filename = cardCsvFileName(component.key, component.model, ctx.now, app.timezone);
      await streamCsv({
        res,
        src: { reads: engine.src.reads, states: engine.src.states, appId: app.id },
        columns: columns.columns,
        long: columns.long,
        start,
        end,
        tz: app.timezone,
        filename,
      });
      return null;
    }),
  ];
  if (sendCommand)
    routes.push(route(cardsContract.command, ({ input, caller }) => command(engine, sendCommand, caller, input)));
  return routes;
}

function contextOf(
  engine: CardEngine,
  appId: number,
  tz: string,
  component: Component,
  conf: Parameters<typeof filterOf>[1],
  q: CardFilterQuery,
): EvalContext {
  const vars = new VariableScope([
    overrides(q.vars),
    component.var as Record<string, unknown> | undefined,
    conf.var as Record<string, unknown> | undefined,
  ]);
  const ctx: EvalContext = {
    src: engine.src,
    appId,
    tz,
    now: Date.now(),
    decimals: 2,
    tags: component.model?.tags,
    vars,
    deps: new Set(),
    window: () => resolveWindow(filterOf(component, conf, q, true), ctx.now, tz, false),
  };
  vars.ctx = ctx;
  return ctx;
}

async function command(
  engine: CardEngine,
  send: CardCommandSender,
  caller: Caller,
  input: {
    dashboardId: number;
    componentKey: string;
    value?: unknown;
    device_id?: number | string;
    sensor?: string;
    config?: string;
    param?: string;
  },
) {
  const view = await engine.source.dashboard(caller, input.dashboardId);
  const component = componentForCall(view, input.componentKey);
  if (!isCommandCard(component.cat)) throw invalid(T.cards.notCommandCard);
  const app = caller.app!;
  const target = (component.model?.config ?? {}) as Record<string, unknown>;
  // the card's configured target wins; the request only fills what the card leaves open
  const pick = (own: unknown, sent: unknown) =>
    typeof own === 'string' && own !== '' ? own : typeof sent === 'string' && sent !== '' ? sent : undefined;
  const sensor = pick(target.sensor, input.sensor);
  const configtype = pick(target.config ?? target.configtype, input.config);
  const param = pick(target.param, input.param);
  if (!sensor || !configtype || !param) throw invalid(T.cards.noTarget);
  const value = input.value !== undefined && input.value !== null ? input.value : (target.value ?? true);

  let deviceIds: number[];
  if (commandsByTags(component.cat)) {
    deviceIds = (await engine.src.directory.matching(app.id, component.model?.tags)).map((d) => d.id);
    if (input.device_id !== undefined) {
      const one = Number(input.device_id);
      if (!deviceIds.includes(one)) throw notFound(T.cards.deviceNotFound);
      deviceIds = [one];
    }
    if (deviceIds.length === 0) throw notFound(T.cards.noMatchingDevice);
  } else {
    const configured =
      target.device_id !== undefined && target.device_id !== ''
        ? Number(target.device_id)
        : input.device_id !== undefined
          ? Number(input.device_id)
          : NaN;
    if (!Number.isSafeInteger(configured)) throw invalid(T.cards.noTarget);
    if (!(await engine.src.directory.device(app.id, configured))) throw notFound(T.cards.deviceNotFound);
    deviceIds = [configured];
  }

  const results: { device_id: number; response_result: number; message: string }[] = [];
  for (let i = 0; i < deviceIds.length; i += COMMAND_FANOUT) {
    const batch = deviceIds.slice(i, i + COMMAND_FANOUT);
    const outcomes = await Promise.all(
      batch.map((deviceId) =>
        send({ caller, appId: app.id, deviceId, sensor, configtype, param, value }).catch((err): CommandOutcome => {
          if (err instanceof ApiError) return { ok: false, code: err.code, message: err.message };
          throw err;
        }),
      ),
    );
    outcomes.forEach((o, k) =>
      results.push({
        device_id: batch[k]!,
        response_result: o.ok ? Result.OK : o.code,
        message: o.ok ? c.success : commandFailure(o.code),
      }),
    );
  }
  const failed = results.find((r) => r.response_result !== Result.OK);
  if (failed) {
    throw results.length > 1
      ? new ApiError(failed.response_result, failed.message, 400, undefined, { results })
      : fail(failed.response_result, failed.message);
  }
  return results.length > 1 ? { message: c.success, results } : { message: c.success };
}
