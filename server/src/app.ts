// The composition root: builds Sentra from its parts and never listens on import. main.ts and the tests call it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './platform/config.js';
import { createLogger, type Logger } from './platform/log.js';
import { findUp, openDb } from './platform/db/sqlite.js';
import { createHttpApp } from './platform/http/server.js';
import * as schema from './schema.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { appsRoutes } from './modules/apps/apps.routes.js';
import { createRolesService } from './modules/roles/roles.service.js';
import { rolesRoutes } from './modules/roles/roles.routes.js';
import { navsRoutes } from './modules/dashboards/navs.routes.js';
import { createSecretBox, loadSecretKey } from './modules/credentials/secret-box.js';
import { createCredentialsService } from './modules/credentials/credentials.service.js';
import { credentialsRoutes } from './modules/credentials/credentials.routes.js';
import { createUsersService } from './modules/users/users.service.js';
import { createRefreshTokenService } from './modules/users/refresh-token.service.js';
import { refreshTokenRoutes, usersRoutes } from './modules/users/users.routes.js';

export interface SentraApp {
  config: Config;
  log: Logger;
  db: ReturnType<typeof openDb<typeof schema>>;
  server: http.Server;
  /** starts HTTP (and the broker); resolves with the bound ports */
  listen(): Promise<{ port: number; url: string }>;
  /** graceful: stop accepting, drain, close broker, bus and database */
  close(): Promise<void>;
}

export interface BuildOptions {
  log?: Logger;
  now?: () => number;
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
  const log = opts.log ?? createLogger(config.LOG_LEVEL);
  const dbHandle = openDb({ dataDir: config.DATA_DIR, schema, migrationsFolder: findUp('drizzle', import.meta.url) });
  const db = dbHandle.db;

  const secretBox = createSecretBox(loadSecretKey(config.DATA_DIR));
  const rolesService = createRolesService(db, { now: opts.now });
  const credentialsService = createCredentialsService(db, secretBox, { now: opts.now });
  const auth = createAuthService(db, { now: opts.now, grantsOf: rolesService.grantsOf, extraAuthenticators: [credentialsService.authenticator] });
  const usersService = createUsersService(db, rolesService, auth, { now: opts.now });
  const refreshTokens = createRefreshTokenService(db, secretBox, auth, { now: opts.now });
  const routes = [
    ...authRoutes(auth),
    ...appsRoutes(db, rolesService.menuNavs),
    ...credentialsRoutes(credentialsService),
    ...usersRoutes(usersService),
    ...refreshTokenRoutes(refreshTokens),
    ...rolesRoutes(rolesService),
    ...navsRoutes(db),
  ];

  const httpApp = createHttpApp({
    routes,
    authenticate: auth.authenticate,
    log,
    checkOutput: process.env.NODE_ENV !== 'production',
    webDist: config.WEB_DIST ?? defaultWebDist(),
  });
  const server = http.createServer(httpApp);

  let closed = false;
  return {
    config,
    log,
    db: dbHandle,
    server,
    async listen() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.PORT, config.HOST, () => resolve());
      });
      const port = (server.address() as AddressInfo).port;
      return { port, url: `http://${config.HOST}:${port}` };
    },
    async close() {
      if (closed) return;
      closed = true;
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 2000).unref();
      });
      dbHandle.close();
    },
  };
}
