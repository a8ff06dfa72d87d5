// The dashboard calls of spec 02 section 7 (besides nav/list and nav/list/detail in navs.routes.ts).
import { dashboardsContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { DashboardsService } from './dashboards.service.js';
import type { Selection } from './selection.js';

export function dashboardsRoutes(service: DashboardsService, selection: Selection) {
  return implement(dashboardsContract, {
    get: async ({ caller, input }) => ({ data: await service.get(caller, input.id) }),
    dashboard: async ({ caller, input }) => ({ data: await service.get(caller, input.id) }),
    listNin: async ({ caller, input }) => ({ navs: await service.parentChoices(caller, input.id) }),
    add: ({ caller, input }) => service.add(caller, input),
    edit: ({ caller, input }) => service.edit(caller, input),
    remove: async ({ caller, input }) => {
      await service.remove(caller, input.id);
      return {};
    },
    removeComponent: ({ caller, input }) => service.removeComponent(caller, input.id, input.dashboard_id),
    devices: ({ caller, input }) => selection.devices(caller.app!.id, input),
    sensors: ({ caller, input }) => selection.sensors(caller.app!.id, input),
    tags: ({ caller }) => selection.tags(caller.app!.id),
    view: async ({ caller, input }) => ({ data: await service.view(caller, input.id) }),
  });
}
