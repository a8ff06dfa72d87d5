// The role calls: list (with name search), add, get, edit (info and/or access form), remove.
import { rolesContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { RolesService } from './roles.service.js';

export const rolesRoutes = (rolesService: RolesService) =>
  implement(rolesContract, {
    list: ({ input, caller }) => ({ data: rolesService.list(caller.app!.id, input.name) }),
    add: ({ input, caller }) => ({ data: rolesService.add(caller, input) }),
    get: ({ input, caller }) => ({ data: rolesService.detail(caller.app!.id, input.id) }),
    edit: ({ input, caller }) => ({ data: rolesService.edit(caller, input) }),
    remove: ({ input, caller }) => rolesService.remove(caller, input.id),
  });
