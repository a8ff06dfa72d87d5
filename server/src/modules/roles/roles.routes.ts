// The role calls: list (with name search), add, get, edit (info and/or access form), remove.
import { rolesContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { RolesService } from './roles.service.js';

export const rolesRoutes = (rolesService: RolesService) =>
  implement(rolesContract, {
    list: async ({ input, caller }) => ({ data: await rolesService.list(caller.app!.id, input.name) }),
    add: async ({ input, caller }) => ({ data: await rolesService.add(caller, input) }),
    get: async ({ input, caller }) => ({ data: await rolesService.detail(caller.app!.id, input.id) }),
    edit: async ({ input, caller }) => ({ data: await rolesService.edit(caller, input) }),
    remove: ({ input, caller }) => rolesService.remove(caller, input.id),
  });
