// API credentials: the records behind the Credentials screens, and the authenticator that lets a (credentials_id,
// secret) pair call its application's REST API with the grants of its scopes.
import { timingSafeEqual } from 'node:crypto';
import { ALL_NAVS, CREDENTIALS_CATEGORIES, Header, SYS_NAVS, T, type CredentialsCategory } from '@sentra/contracts';
import { hashToken, newToken } from '../../platform/crypto.js';
import { conflict, notFound, unauthorized } from '../../platform/http/errors.js';
import type { Caller } from '../../platform/http/mount.js';
import type { ExtraAuthenticator } from '../auth/auth.service.js';
import type { AccessChanges } from '../auth/access-changes.js';
import { expandNavs, parseJson, type Grants } from '../roles/roles.service.js';
import type { CredentialsRow, CredentialsStore } from './credentials.store.js';
import type { SecretBox } from './secret-box.js';

type Row = CredentialsRow;
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
  store: CredentialsStore,
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

  async function rowOf(appId: number, id: number): Promise<Row> {
    const row = await store.byId(appId, id);
    if (!row) throw notFound();
    return row;
  }

  const list = async (appId: number) => (await store.list(appId)).map(present);
  const read = async (appId: number, id: number) => present(await rowOf(appId, id));

  function newSecret() {
    const secret = newToken(32);
    return { secretSealed: box.seal(secret), secretHash: hashToken(secret) };
  }

  async function create(
    appId: number,
    input: { category: number; credentials_id: string; scopes: JsonObject; details: JsonObject },
  ) {
    if (await store.idTaken(appId, input.credentials_id)) throw conflict(T.credentials.idTaken);
    const row = await store.create({
      appId,
      category: input.category,
      credentialsId: input.credentials_id,
      ...newSecret(),
      scopes: JSON.stringify(input.scopes),
      details: JSON.stringify(input.details),
      createdAt: now(),
      updatedAt: now(),
    });
    // two creations racing for the same id: the unique index decides
    if (!row) throw conflict(T.credentials.idTaken);
    return present(row);
  }

  /** `set` applied to the pair `id` of the application; 404 when it has none (or it went meanwhile) */
  async function change(appId: number, id: number, set: Parameters<CredentialsStore['update']>[1]) {
    await rowOf(appId, id);
    const row = await store.update(id, set);
    if (!row) throw notFound();
    changed();
    return present(row);
  }

  const update = (appId: number, input: { id: number; scopes: JsonObject; details: JsonObject }) =>
    change(appId, input.id, {
      scopes: JSON.stringify(input.scopes),
      details: JSON.stringify(input.details),
      updatedAt: now(),
    });

  async function remove(appId: number, id: number) {
    await rowOf(appId, id);
    await store.remove(id);
    changed();
    return {};
  }

  const regenerateSecret = (appId: number, id: number) => change(appId, id, { ...newSecret(), updatedAt: now() });

  /**
   * x-credentials-id + x-credentials-secret (+ x-app-domain): the pair of that application, compared by the
   * SHA-256 of the secret in constant time. Not using the headers → null (other authenticators decide); using them
   * wrongly → 401.
   */
  const authenticator: ExtraAuthenticator = async (header, _def, app) => {
    const credentialsId = header(Header.credentialsId);
    const secret = header(Header.credentialsSecret);
    if (!credentialsId && !secret) return null;
    if (!credentialsId || !secret || !app || credentialsId.length > 32 || secret.length > 256) throw unauthorized();
    const pair = await store.pair(app.id, credentialsId);
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
