// The composition root: builds Sentra from its parts and never listens on import. main.ts and the tests call it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './platform/config.js';
import { createLogger, type Logger } from './platform/log.js';
import { findUp, type SqliteHandle } from './platform/db/sqlite.js';
import { openEngine } from './platform/db/engine.js';
import type { AppStore } from './db.js';
import { deploymentIdOf } from './platform/db/deployment.js';
import { createHttpApp } from './platform/http/server.js';
import { clientAddressOf } from './platform/http/client-address.js';
import { tuneV8 } from './platform/v8-tuning.js';
import { createBus, type Bus } from './platform/bus/index.js';
import { DEFAULT_RETAINED_LIMITS, SessionStore } from './platform/mqtt/persistence/session-store.js';
import { sqliteBrokerState } from './platform/mqtt/persistence/sqlite-persistence.js';
import { pgBrokerState } from './platform/mqtt/persistence/pg-persistence.js';
import { createBroker, type EmbeddedBroker } from './platform/mqtt/broker.js';
import { createRealtime } from './platform/realtime/realtime.js';
import type { Realtime } from './platform/realtime/types.js';
import * as schema from './schema.js';
import { openTelemetryPipeline, type EngineTelemetryPipeline } from './modules/telemetry/ingest/pipeline.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { createAuthStore } from './modules/auth/auth.store.js';
import { createSignInThrottle } from './modules/auth/throttle.js';
import { createAccessChanges } from './modules/auth/access-changes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { appsRoutes } from './modules/apps/apps.routes.js';
import { createAppTenants } from './modules/apps/apps.reads.js';
import { createAppsStore } from './modules/apps/apps.store.js';
import { createRolesService } from './modules/roles/roles.service.js';
import { createRolesStore } from './modules/roles/roles.store.js';
import { navItemsOf } from './modules/dashboards/dashboards.store.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { navsRoutes } from './modules/dashboards/navs.routes.js';
import { createDashboardsService } from './modules/dashboards/dashboards.service.js';
import { createDashboardGrants } from './modules/dashboards/grants.js';
import { dashboardsRoutes } from './modules/dashboards/dashboards.routes.js';
import { createDashboardsStore } from './modules/dashboards/dashboards.store.js';
import { createSelection } from './modules/dashboards/selection.js';
import { roleOfAccount } from './modules/users/users.store.js';
import { roleSelection } from './modules/roles/roles.store.js';
import { devicesForSelection } from './modules/devices/devices.store.js';
import { tagOptions } from './modules/tags/tags.store.js';
import { seriesIdsOfApp, seriesOfApp } from './modules/telemetry/read/series-catalogue.js';
import { stateKeysOfApp } from './modules/states/states.reads.js';
import { createSecretBox } from './modules/credentials/secret-box.js';
import { loadSealKey } from './platform/seal-key.js';
import { createConnectThrottle } from './platform/mqtt-connect-throttle.js';
import { createCredentialsService } from './modules/credentials/credentials.service.js';
import { createCredentialsStore } from './modules/credentials/credentials.store.js';
import { credentialsRoutes } from './modules/credentials/credentials.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { createRefreshTokenService } from './modules/users/refresh-token.service.js';
import { createUsersStore } from './modules/users/users.store.js';
import { refreshTokenRoutes, usersRoutes } from './modules/users/users.routes.js';
import { createDevicesDomain } from './modules/devices/devices.module.js';
import { addRootDashboard } from './modules/dashboards/dashboards.store.js';
import {
  ALONE_RESOLVER_CACHE_MS,
  createTelemetryResolver,
  deviceRows,
  RESOLVER_CACHE_MS,
} from './modules/devices/telemetry-resolver.js';
import { createDeviceDataService } from './modules/telemetry/device-data.service.js';
import { telemetryRoutes } from './modules/telemetry/telemetry.routes.js';
import { attachLiveChannels } from './modules/telemetry/live.channels.js';
import { statesRoutes } from './modules/states/states.routes.js';
import { createCommands, type Commands } from './modules/commands/commands.service.js';
import { commandsRoutes } from './modules/commands/commands.routes.js';
import { createCardsDomain, type CardsDomain } from './modules/cards/cards.module.js';
import { webserviceRoutes } from './modules/webservice/webservice.routes.js';
import { notificationsRoutes } from './modules/notifications/notifications.routes.js';
import { createOutbox, type Outbox } from './modules/notifications/outbox.js';
import { createNotificationWorker, type NotificationWorker } from './modules/notifications/worker.js';
import { createRulesDomain, type RulesDomain } from './modules/rules/rules.module.js';
import { createDevicesStore } from './modules/devices/devices.store.js';
import { createSystemStatus } from './modules/system/system.js';
import { startLiveness, type Liveness } from './platform/liveness/liveness.js';

export interface SentraApp {
  config: Config;
  log: Logger;
  /** the SQLite database when the engine is SQLite (DATABASE_URL unset); undefined on PostgreSQL */
  db: SqliteHandle<typeof schema> | undefined;
  /** the asynchronous store of the storage boundary (platform/db/store.ts) */
  store: AppStore;
  server: http.Server;
  bus: Bus;
  broker: EmbeddedBroker;
  realtime: Realtime;
  /** MQTT telemetry → points, states, rollups; the device registry installs its resolver with `useResolver` */
  telemetry: EngineTelemetryPipeline;
  /** device commands (`sendCommand`): the configuration call and the command cards */
  commands: Commands;
  /** card query engine and live push (`/fetch/web/g`, `/fetch/web/p`, card CSV, socket.io channel `dashboard`) */
  cards: CardsDomain;
  /** rules, tasks and their engine (rule/*, task/*, socket.io channel `tasks`) */
  rules: RulesDomain;
  /** the notification outbox (rules enqueue into it inside their transactions) and its delivery worker (`metrics()`) */
  outbox: Outbox;
  notifications: NotificationWorker;
  /** starts HTTP (and the broker); resolves with the bound ports */
  listen(): Promise<{ port: number; url: string; mqttPort: number; livenessPort?: number }>;
  /** graceful: stop accepting, drain, close broker, bus and database; idempotent */
  close(): Promise<void>;
}

export interface BuildOptions {
  log?: Logger;
  now?: () => number;
  /** how long a command waits for the device's reply (default 55 s, inside the 60 s call) */
  commandTimeoutMs?: number;
}

function defaultWebDist(): string | undefined {
  try {
    const dir = path.join(findUp('web', import.meta.url), 'dist');
    return fs.existsSync(dir) ? dir : undefined;
  } catch {
    return undefined;
  }
}

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<SentraApp> {
  tuneV8();
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  // the engine: PostgreSQL at DATABASE_URL, or SQLite in DATA_DIR; every domain works through its async store
  const engine = await openEngine(config, log);
  const store: AppStore = engine.store;
  // the SQLite connection for what runs on it directly (telemetry's writer thread and journal), when on SQLite
  const dbHandle = engine.kind === 'sqlite' ? engine.sqlite : undefined;
  // with NATS, gateways prove they share this database before they take each other's messages (bus/deployment.ts)
  let bus: Bus;
  let sessions: SessionStore;
  try {
    bus = await createBus(config, log, { id: await deploymentIdOf(store), what: engine.where });
    // the broker's retained messages and away sessions, read before the broker listens
    sessions = await SessionStore.open(
      engine.kind === 'sqlite' ? sqliteBrokerState(engine.sqlite.sqlite) : pgBrokerState(engine.pool),
      {
        failed: (err) => log.error('MQTT broker state (retained messages, sessions) could not be written', err),
        limits: {
          device: { count: config.MQTT_RETAINED_PER_DEVICE, bytes: config.MQTT_RETAINED_BYTES_PER_DEVICE },
          tenant: { count: config.MQTT_RETAINED_PER_TENANT, bytes: config.MQTT_RETAINED_BYTES_PER_TENANT },
          platform: DEFAULT_RETAINED_LIMITS.platform,
        },
      },
    );
  } catch (err) {
    await engine.close();
    throw err;
  }
  const broker = createBroker({
    host: config.HOST,
    port: config.MQTT_PORT,
    log,
    debug: config.LOG_LEVEL === 'debug',
    threads: config.MQTT_THREADS,
    nativeReads: config.MQTT_NATIVE_READS === 'on',
    fastPath: config.MQTT_FAST_PATH === 'on',
    maxOutboundBytes: config.MQTT_MAX_OUTBOUND_BYTES,
    proxyProtocolFrom: config.MQTT_PROXY_PROTOCOL === 'on' ? config.TRUST_PROXY : [],
    throttle: createConnectThrottle({
      failuresPerMinute: config.MQTT_AUTH_FAILURES_PER_MINUTE,
      unknownPerMinute: config.MQTT_UNKNOWN_CONNECTS_PER_MINUTE,
    }),
    store: sessions,
    // several gateways: retained messages and persistent sessions are the deployment's (mqtt/cluster.ts)
    cluster: bus.kind === 'nats' ? bus : undefined,
  });
  // no resolver until the device registry provides one: no device is known, nothing is ingested
  const telemetry = await openTelemetryPipeline({
    ...(engine.kind === 'sqlite' ? { sqlite: engine.sqlite.sqlite } : { postgres: engine.pool }),
    bus,
    log,
    now: opts.now,
    writerThread: config.WRITER_THREAD === 'on',
    retentionDays: config.TELEMETRY_RETENTION_DAYS,
  });
  telemetry.attachBroker(broker);

  const sealKey = loadSealKey(config);
  log.debug(`sealing key: ${sealKey.from}`);
  const secretBox = createSecretBox(sealKey.key);
  // callers, grants, menus and dashboards are cached on the request path; every write of them is announced here
  const changes = createAccessChanges({ bus });
  // the one rule of which dashboards a caller may open and manage, and the menu they see (dashboards/grants.ts)
  const dashboardsStore = createDashboardsStore(store);
  const dashboardGrants = createDashboardGrants(
    {
      dashboards: dashboardsStore,
      roleOfAccount: (appId, accountId) => roleOfAccount(store, appId, accountId),
      roleSelection: (appId, roleId) => roleSelection(store, appId, roleId),
    },
    { now: opts.now, changes },
  );
  const appsStore = createAppsStore(store);
  const authStore = createAuthStore(store);
  const usersStore = createUsersStore(store);
  const rolesService = createRolesService(
    createRolesStore(store),
    { users: usersStore, navItems: (appId) => navItemsOf(store, appId) },
    { grants: dashboardGrants, now: opts.now, changes },
  );
  const credentialsStore = createCredentialsStore(store);
  const credentialsService = createCredentialsService(credentialsStore, secretBox, {
    now: opts.now,
    changes,
  });
  const auth = createAuthService(
    authStore,
    { apps: appsStore, users: usersStore },
    {
      now: opts.now,
      changes,
      grantsOf: rolesService.grantsOf,
      extraAuthenticators: [credentialsService.authenticator],
      sessionLimits: { idleMs: config.SESSION_IDLE_TIMEOUT_S * 1000, maxAgeMs: config.SESSION_MAX_AGE_S * 1000 },
      throttle: createSignInThrottle(
        { attempts: config.LOGIN_THROTTLE_ATTEMPTS, windowS: config.LOGIN_THROTTLE_WINDOW_S },
        { attempts: config.REGISTER_THROTTLE_ATTEMPTS, windowS: config.REGISTER_THROTTLE_WINDOW_S },
      ),
    },
  );
  const usersService = createUsersService(usersStore, rolesService, auth, { now: opts.now, changes });
  const refreshTokens = createRefreshTokenService(usersStore, secretBox, auth, { now: opts.now });
  const dashboardsService = createDashboardsService(dashboardsStore, {
    grants: dashboardGrants,
    grantCreated: rolesService.grantCreated,
    now: opts.now,
    changes,
  });
  // the HTTP server is made below; the port is asked only when a device answer is built
  const httpPort = () => (server.address() as AddressInfo | null)?.port ?? config.PORT;
  const appTenants = createAppTenants(appsStore);
  await appTenants.load();
  const devicesDomain = await createDevicesDomain({
    store,
    credentialsPairByHash: credentialsStore.pairByHash,
    addDashboard: (input) => addRootDashboard(store, input),
    broker,
    bus,
    config,
    log,
    now: opts.now,
    httpPort,
    // the device authority answers without waiting (devices.broker.ts): the tenants read at start and kept since
    tenantOf: appTenants.knownTenantOf,
  });
  // the registry tells the pipeline whose message it is; presence stays the registry's (docs/decisions/card-reads.md)
  const resolver = createTelemetryResolver(deviceRows(store), devicesDomain.devices, {
    now: opts.now,
    lora: devicesDomain.loraApplications,
    // alone, every edit is this gateway's and evicts at once; in scale-out another gateway's edit may be lost on the bus
    cacheMs: bus.kind === 'nats' ? RESOLVER_CACHE_MS : ALONE_RESOLVER_CACHE_MS,
    onError: (err) => log.warn('device row reload failed', err),
  });
  telemetry.useResolver(resolver);
  devicesDomain.registryChanges.on((change) => resolver.changed(change));
  const commands = createCommands({
    bus,
    broker,
    devices: devicesDomain.devices,
    resolver,
    log,
    now: opts.now,
    waitMs: opts.commandTimeoutMs,
    loraApplications: devicesDomain.loraApplications,
  });
  // card queries, live push and command cards (through the command path's sendCommand)
  const cardsDomain = createCardsDomain({
    store,
    telemetry,
    log,
    devices: devicesDomain.devices,
    changes,
    grants: dashboardGrants,
    dashboards: dashboardsStore,
    sendCommand: async ({ appId, deviceId, sensor, configtype, param, value }) => (
      await commands.sendCommand({ appId, deviceId, sensor, configtype, param, value: value as never }),
      { ok: true }
    ),
    now: opts.now,
  });
  // notifications: written with the task change, delivered by the worker once the gateway listens
  const outbox = createOutbox(store, { now: opts.now });
  const notifications = createNotificationWorker({ config, log, now: opts.now, outbox });
  const devicesStore = createDevicesStore(store);
  const rulesDomain = createRulesDomain({
    store,
    reads: {
      appOf: appsStore.scopeById,
      appTenants: appsStore.tenants,
      billingOf: authStore.billingOf,
      tenantUsername: authStore.tenantUsername,
      accountOf: usersStore.byId,
      deviceOf: devicesStore.byId,
      deviceIdsOf: devicesStore.idsOf,
      presenceOf: devicesStore.presenceOf,
      seriesOf: (appId) => seriesIdsOfApp(store, appId),
    },
    bus,
    telemetry,
    devices: devicesDomain.devices,
    onDeviceConnected: devicesDomain.onDeviceConnected,
    outbox,
    now: opts.now,
    log,
    // asked for by its own setting: printed whatever LOG_LEVEL is (gateways under test log warnings only)
    trace: config.RULES_TRACE === 'on' ? createLogger('info', 'rules-trace').info : undefined,
  });
  // the console's banner while device data cannot be stored (a full disk, PostgreSQL unreachable)
  const system = createSystemStatus({ storageFailing: () => telemetry.metrics().storage_faulting === true });
  // the client behind a call or a WebSocket upgrade: the peer, or what a balancer named by TRUST_PROXY forwarded
  const clientAddress = clientAddressOf(config.TRUST_PROXY);
  const routes = [
    ...authRoutes(auth, clientAddress),
    ...appsRoutes(appsStore, dashboardGrants.menuOf, appTenants),
    ...credentialsRoutes(credentialsService),
    ...usersRoutes(usersService),
    ...refreshTokenRoutes(refreshTokens),
    ...rolesRoutes(rolesService),
    ...navsRoutes(dashboardsStore, dashboardGrants),
    ...dashboardsRoutes(
      dashboardsService,
      // what the card editor chooses from, asked of the domains that hold it
      createSelection({
        devices: (appId) => devicesForSelection(store, appId),
        series: (appId) => seriesOfApp(store, appId),
        stateKeys: (appId) => stateKeysOfApp(store, appId),
        tagOptions: (appId) => tagOptions(store, appId),
      }),
    ),
    ...devicesDomain.routes,
    ...telemetryRoutes({
      store,
      devices: devicesDomain.devices,
      tags: devicesDomain.tags,
      data: createDeviceDataService(telemetry.query),
      now: opts.now,
    }),
    ...statesRoutes({ devices: devicesDomain.devices, states: telemetry.states, onRemoved: rulesDomain.stateRemoved }),
    ...commandsRoutes({ devices: devicesDomain.devices, commands }),
    ...cardsDomain.routes,
    ...webserviceRoutes({ source: cardsDomain.engine.source, allow: config.WEBSERVICE_ALLOW }),
    ...rulesDomain.routes,
    ...notificationsRoutes(notifications),
    ...system.routes(),
  ];

  const httpApp = createHttpApp({
    routes,
    authenticate: auth.authenticate,
    log,
    checkOutput: process.env.NODE_ENV !== 'production',
    webDist: config.WEB_DIST ?? defaultWebDist(),
    mapTileUrl: config.MAP_TILE_URL,
  });
  const server = http.createServer(httpApp);
  broker.attachWebSocket(server, '/mqtt', clientAddress);
  const realtime = createRealtime({
    server,
    bus,
    log,
    authenticate: (h) => auth.resolveCaller(h, { audience: 'session' }),
    onAccessChange: (fn) => changes.onChange((what) => what === 'access' && fn()),
    // a role that stops opening a dashboard ends that dashboard's live subscriptions too
    accessKey: async (caller) => {
      const scope = await dashboardGrants.scopeOf(caller);
      return scope === 'all' ? 'all' : [...scope].sort((x, y) => x - y).join(',');
    },
  });
  attachLiveChannels({ realtime, telemetry, devices: devicesDomain.devices, bus });
  cardsDomain.attachRealtime(realtime);
  rulesDomain.attachRealtime(realtime);
  system.attachRealtime(realtime);
  await rulesDomain.start();

  let closing: Promise<void> | undefined;
  let liveness: Liveness | undefined;
  return {
    config,
    log,
    db: dbHandle,
    store,
    server,
    bus,
    broker,
    realtime,
    telemetry,
    commands,
    cards: cardsDomain,
    rules: rulesDomain,
    outbox,
    notifications,
    async listen() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.PORT, config.HOST, () => resolve());
      });
      const port = (server.address() as AddressInfo).port;
      const mqttPort = await broker.listen();
      notifications.start();
      // last: a balancer sends nothing to this gateway before it serves both
      if (config.LIVENESS_PORT !== undefined)
        liveness = await startLiveness({
          host: config.HOST,
          port: config.LIVENESS_PORT,
          stallMs: config.LIVENESS_STALL_MS,
          log,
        });
      return { port, url: `http://${config.HOST}:${port}`, mqttPort, livenessPort: liveness?.port };
    },
    close() {
      closing ??= (async () => {
        // first: the balancer takes this gateway out at its next check (refused) while it drains
        await liveness?.close();
        // stop accepting first; long-lived sockets (socket.io, MQTT) are then closed so the HTTP close can complete
        const httpClosed = new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 2000).unref();
        });
        cardsDomain.close();
        system.close();
        await realtime.close();
        await broker.close();
        await httpClosed;
        commands.close();
        // what devices sent before the broker closed is still on the bus: deliver it before the database goes
        await bus.flush().catch((err) => log.warn('bus flush failed during shutdown', err));
        await telemetry.close();
        await rulesDomain.close();
        await bus.close();
        // in-flight sends are aborted and go back to 'queued' (at-least-once), before the database goes
        await notifications.close();
        await devicesDomain.close();
        await engine.close();
      })();
      return closing;
    },
  };
}
