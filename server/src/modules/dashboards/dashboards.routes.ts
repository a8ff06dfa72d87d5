// The dashboard calls of spec 02 section 7 (besides nav/list and nav/list/detail in navs.routes.ts).
import { dashboardsContract } from '@sentra/contracts';
import type { Db } from '../../db.js';
import { implement } from '../../platform/http/mount.js';
import type { DashboardsService } from './dashboards.service.js';
import { createSelection } from './selection.js';

export function dashboardsRoutes(db: Db, service: DashboardsService) {
  const selection = createSelection(db);
  return implement(dashboardsContract, {
    get: ({ caller, input }) => ({ data: service.get(caller, input.id) }),
    dashboard: ({ caller, input }) => ({ data: service.get(caller, input.id) }),
    listNin: ({ caller, input }) => ({ navs: service.parentChoices(caller, input.id) }),
    add: ({ caller, input }) => service.add(caller, input),
    edit: ({ caller, input }) => service.edit(caller, input),
    remove: ({ caller, input }) => {
      service.remove(caller, input.id);
      return {};
    },
    removeComponent: ({ caller, input }) => service.removeComponent(caller, input.id, input.dashboard_id),
    devices: ({ caller, input }) => selection.devices(caller.app!.id, input),
    sensors: ({ caller, input }) => selection.sensors(caller.app!.id, input),
    tags: ({ caller }) => selection.tags(caller.app!.id),
    view: ({ caller, input }) => ({ data: service.view(caller, input.id) }),
  });
}
