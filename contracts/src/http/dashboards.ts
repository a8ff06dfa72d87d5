// Dashboards (spec 02 section 7): the navigation items' records, their conf_dashboard (validated with the v2 schema on
// every save), one component's removal, the selection trees of the card editor, and the view of one dashboard.
import { z } from 'zod';
import { Result } from '../codes.js';
import { T } from '../text/id.js';
import { defineCall, type Access } from './define.js';
import { id, JSON_DEPTH_MAX, jsonDepthWithin } from '../models/fields.js';
import { NavItem } from '../models/access.js';
import { ConfDashboard, DashboardName, DevicesAnswer, SensorsAnswer } from '../models/dashboard/index.js';

const t = T.dashboards;

/** Writes and the editor's reads: "the application user's menu entry for dashboards is granted by _dashboard_manage_". */
const MANAGE: Access = { navs: ['_dashboard_manage_'] };
/**
 * Viewing one dashboard: `_dashboard_manage_`, or the dashboard among the navigation items the caller's role grants.
 * No system key expresses the second, so the handler decides per dashboard (a refusal is 403 -13).
 */
const VIEW: Access = { navs: [] };

export const DASHBOARD_LABEL_MAX = 64;
export const DASHBOARD_DESC_MAX = 256;

/**
 * conf_dashboard as sent: the object, or JSON text holding one (the manual forms edit JSON as text). Its cards keep
 * fields of their own, so the text is held to the nesting a JSON body is held to.
 */
const confDashboard = z
  .preprocess((v) => {
    if (typeof v !== 'string') return v;
    try {
      return JSON.parse(v) as unknown;
    } catch {
      return v;
    }
  }, ConfDashboard)
  .refine((v) => jsonDepthWithin(v), T.common.jsonTooDeep(JSON_DEPTH_MAX));

const label = DashboardName.transform((s) => s.trim()).pipe(
  z.string().max(DASHBOARD_LABEL_MAX, T.common.max(DASHBOARD_LABEL_MAX)),
);
const desc = z.string().max(DASHBOARD_DESC_MAX, T.common.max(DASHBOARD_DESC_MAX));
/** The parent dashboard; null, 0 or '' for a root. */
const parent = z.preprocess((v) => (v === '' || v === 0 || v === '0' ? null : v), id.nullable());

/** conf_dashboard as answered: what is stored, read leniently (older or generated dashboards still open). */
const StoredConf = z.looseObject({});

export const AddDashboardInput = z.object({
  label,
  desc: desc.optional(),
  parent: parent.optional(),
  conf_dashboard: confDashboard,
});

/** Full edit (label, desc, parent, conf_dashboard), or a layout/component change: id and conf_dashboard only. */
export const EditDashboardInput = z
  .object({
    id,
    label: label.optional(),
    desc: desc.optional(),
    parent: parent.optional(),
    conf_dashboard: confDashboard.optional(),
  })
  .refine((v) => v.label !== undefined || v.conf_dashboard !== undefined, {
    message: t.form.nameRequired,
    path: ['label'],
  });

export const DashboardRecord = z.object({
  id: z.number().int(),
  label: z.string(),
  desc: z.string(),
  parent: z.number().int().nullable(),
  path: z.string(),
  conf_dashboard: StoredConf,
});
export type DashboardRecord = z.output<typeof DashboardRecord>;

const saved = z.object({ id: z.number().int(), path: z.string() });
const byId = z.object({ id }).strip();

/** A list of tag strings: repeated, comma-separated, or a JSON array. */
export const tagFilter = z.preprocess(
  (v) => {
    if (v === undefined || v === '') return undefined;
    if (typeof v === 'string' && v.trim().startsWith('[')) {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        return v;
      }
    }
    const list = Array.isArray(v) ? v : [v];
    return list.flatMap((s) => (typeof s === 'string' ? s.split(',') : [s]));
  },
  z
    .array(z.string().trim())
    .transform((tags) => tags.filter((s) => s !== ''))
    .optional(),
);

export const SelectionQuery = z
  .object({
    /** 'true': only the config types a device accepts writes on (config, command), for command cards */
    config: z.preprocess((v) => v === true || v === 'true' || v === '1', z.boolean()).optional(),
    /** `prefix:value` (or a bare value, any category): only devices carrying one of these tags */
    tags: tagFilter,
  })
  .strip();

const writeErrors = { [Result.INVALID]: T.common.invalidInput, [Result.NOT_FOUND]: T.common.notFound };

export const dashboardsContract = {
  get: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/get/id/{id}',
    summary: 'One dashboard for the edit form: label, desc, parent, path, conf_dashboard',
    audience: 'member',
    access: MANAGE,
    input: byId,
    output: z.object({ data: DashboardRecord }),
  }),
  dashboard: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/dashboard/{id}',
    summary: 'One dashboard for the edit-layout view: conf_dashboard, path, label',
    audience: 'member',
    access: MANAGE,
    input: byId,
    output: z.object({ data: DashboardRecord }),
  }),
  listNin: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/list/nin/{id}',
    summary: 'The dashboards that may be the parent of this one: all others except its own descendants',
    audience: 'member',
    access: MANAGE,
    input: byId,
    output: z.object({ navs: z.array(NavItem) }),
  }),
  add: defineCall({
    method: 'POST',
    path: '/service/web/application/nav/add',
    summary: 'Add a dashboard; its path is derived from the label, unique in the application',
    audience: 'member',
    access: MANAGE,
    input: AddDashboardInput,
    output: saved,
    errors: writeErrors,
  }),
  edit: defineCall({
    method: 'POST',
    path: '/service/web/application/nav/edit',
    summary:
      'Edit a dashboard (label, desc, parent, conf_dashboard), or save its layout/components (id, conf_dashboard); answers the path',
    audience: 'member',
    access: MANAGE,
    input: EditDashboardInput,
    output: saved,
    errors: writeErrors,
  }),
  remove: defineCall({
    method: 'POST',
    path: '/service/web/application/nav/remove',
    summary: 'Remove a dashboard; its children move up to its parent, roles stop granting it',
    audience: 'member',
    access: MANAGE,
    input: byId,
    output: z.object({}),
    errors: { [Result.NOT_FOUND]: T.common.notFound },
  }),
  removeComponent: defineCall({
    method: 'POST',
    path: '/service/web/application/nav/remove/dashboard',
    summary: 'Remove one component: id is the dashboard, dashboard_id the component key in conf_dashboard.dashboard',
    audience: 'member',
    access: MANAGE,
    input: z.object({ id, dashboard_id: z.string({ error: T.common.required }).min(1, T.common.required) }),
    output: saved,
    errors: { [Result.NOT_FOUND]: T.common.notFound },
  }),
  devices: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/device/devices',
    summary: "The application's devices as device → sensor → config → param → subparam, with their labels",
    audience: 'member',
    access: MANAGE,
    input: SelectionQuery,
    output: DevicesAnswer,
  }),
  sensors: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/device/sensors',
    summary: 'The sensors of the same devices without the device level: sensor → config → param → subparam',
    audience: 'member',
    access: MANAGE,
    input: SelectionQuery,
    output: SensorsAnswer,
  }),
  tags: defineCall({
    method: 'GET',
    path: '/service/web/application/nav/tag/list',
    summary: 'Every tag a card query may filter by, as prefix:value',
    audience: 'member',
    access: MANAGE,
    input: z.object({}).strip(),
    output: z.object({ tags: z.array(z.string()) }),
  }),
  view: defineCall({
    method: 'GET',
    path: '/fetch/web/d/{id}',
    summary: 'One dashboard for viewing (its cards query their data separately)',
    audience: 'member',
    access: VIEW,
    input: byId,
    output: z.object({ data: DashboardRecord }),
  }),
} as const;
