// API credentials: the records behind the Credentials screens, and the authenticator that lets a (credentials_id,
// secret) pair call its application's REST API with the grants of its scopes.
import { timingSafeEqual } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { ALL_NAVS, CREDENTIALS_CATEGORIES, Header, SYS_NAVS, T, type CredentialsCategory } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { hashToken, newToken } from '../../platform/crypto.js';
import { conflict, notFound, unauthorized } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { ExtraAuthenticator } from '../auth/auth.service.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { expandNavs, parseJson, type Grants } from '../roles/roles.service.js';
import { credentials } from './credentials.table.js';
import type { SecretBox } from './secret-box.js';

type Row = typeof credentials.$inferSelect;
type JsonObject = Record<string, unknown>;

const asObject = (text: string): JsonObject => {
  const v = parseJson<unknown>(text, {});
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as JsonObject) : {};
};

/** Scopes → the grants a role with those sys_navs and permissions gives (`*` = every system key). */
export function grantsOfScopes(scopes: JsonObject): Grants {
  const navs = Array.isArray(scopes.navs) ? scopes.navs.filter((n): n is string => typeof n === 'string') : [];
  const keys = navs.includes(ALL_NAVS)
    ? [...SYS_NAVS]
    : navs.filter((n) => (SYS_NAVS as readonly string[]).includes(n));
  const permissions =
    typeof scopes.permissions === 'object' && scopes.permissions !== null && !Array.isArray(scopes.permissions)
      ? (scopes.permissions as JsonObject)
      : {};
  return { navs: expandNavs(keys), permissions };
}

export function createCredentialsService(
  db: Db,
  box: SecretBox,
  opts: { now?: () => number; changes?: Pick<AccessChanges, 'changed'> } = {},
) {
  const now = opts.now ?? Date.now;
  // a pair's grants are cached with its callers: new scopes, removal and a new secret drop them
  const changed = () => opts.changes?.changed('access');

  function present(row: Row) {
    return {
      id: row.id,
      category: row.category,
      category_text: CREDENTIALS_CATEGORIES[row.category as CredentialsCategory] ?? String(row.category),
      credentials_id: row.credentialsId,
      credentials_secret: box.open(row.secretSealed),
      scopes: asObject(row.scopes),
      details: asObject(row.details),
      created_time: row.createdAt,
      updated_time: row.updatedAt,
    };
  }

  function rowOf(appId: number, id: number): Row {
    const row = db
      .select()
      .from(credentials)
      .where(and(eq(credentials.appId, appId), eq(credentials.id, id)))
      .get();
    if (!row) throw notFound();
    return row;
  }

  const list = (appId: number) =>
    db.select().from(credentials).where(eq(credentials.appId, appId)).orderBy(asc(credentials.id)).all().map(present);
  const read = (appId: number, id: number) => present(rowOf(appId, id));

  function newSecret() {
    const secret = newToken(32);
    return { secretSealed: box.seal(secret), secretHash: hashToken(secret) };
  }

  function create(
    appId: number,
    input: { category: number; credentials_id: string; scopes: JsonObject; details: JsonObject },
  ) {
    const exists = db
      .select({ id: credentials.id })
      .from(credentials)
      .where(and(eq(credentials.appId, appId), eq(credentials.credentialsId, input.credentials_id)))
      .get();
    if (exists) throw conflict(T.credentials.idTaken);
    try {
      const row = db
        .insert(credentials)
        .values({
          appId,
          category: input.category,
          credentialsId: input.credentials_id,
          ...newSecret(),
          scopes: JSON.stringify(input.scopes),
          details: JSON.stringify(input.details),
          createdAt: now(),
          updatedAt: now(),
        })
        .returning()
        .get();
      return present(row);
    } catch (err) {
      if (String(err).includes('UNIQUE')) throw conflict(T.credentials.idTaken);
      throw err;
    }
  }

  function update(appId: number, input: { id: number; scopes: JsonObject; details: JsonObject }) {
    rowOf(appId, input.id);
    const row = db
      .update(credentials)
      .set({ scopes: JSON.stringify(input.scopes), details: JSON.stringify(input.details), updatedAt: now() })
      .where(eq(credentials.id, input.id))
      .returning()
      .get();
    changed();
    return present(row);
  }

  function remove(appId: number, id: number) {
    rowOf(appId, id);
    db.delete(credentials).where(eq(credentials.id, id)).run();
    changed();
    return {};
  }

  function regenerateSecret(appId: number, id: number) {
    rowOf(appId, id);
    const row = db
      .update(credentials)
      .set({ ...newSecret(), updatedAt: now() })
      .where(eq(credentials.id, id))
      .returning()
      .get();
    changed();
    return present(row);
  }

  // the hot path of every API-key call: one unique-index probe through a statement prepared once
  const findPair = db
    .select({ id: credentials.id, secretHash: credentials.secretHash, scopes: credentials.scopes })
    .from(credentials)
    .where(
      and(
        eq(credentials.appId, sql.placeholder('appId')),
        eq(credentials.credentialsId, sql.placeholder('credentialsId')),
      ),
    )
    .prepare();

  /**
   * x-credentials-id + x-credentials-secret (+ x-app-domain): the pair of that application, compared by the
   * SHA-256 of the secret in constant time. Not using the headers → null (other authenticators decide); using them
   * wrongly → 401.
   */
  const authenticator: ExtraAuthenticator = (header, _def, app) => {
    const credentialsId = header(Header.credentialsId);
    const secret = header(Header.credentialsSecret);
    if (!credentialsId && !secret) return null;
    if (!credentialsId || !secret || !app || credentialsId.length > 32 || secret.length > 256) throw unauthorized();
    const pair = findPair.get({ appId: app.id, credentialsId });
    if (!pair) throw unauthorized();
    const given = Buffer.from(hashToken(secret), 'hex');
    const stored = Buffer.from(pair.secretHash, 'hex');
    if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw unauthorized();
    const caller: Caller = {
      kind: 'credentials',
      tenantId: app.tenantId,
      app,
      grants: grantsOfScopes(asObject(pair.scopes)),
    };
    return caller;
  };

  return { list, read, create, update, remove, regenerateSecret, authenticator };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
