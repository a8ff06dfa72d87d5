// Tag category calls, each answered inside the caller's application only.
import { tagsContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { TagsService } from './tags.service.js';

export const tagsRoutes = (tags: TagsService) =>
  implement(tagsContract, {
    all: async ({ caller }) => ({ categories: await tags.all(caller.app!.id) }),
    list: ({ caller, input }) => tags.list(caller.app!.id, input),
    exists: ({ caller, input }) => tags.exists(caller.app!.id, input),
    add: async ({ caller, input }) => ({ data: await tags.addCategory(caller.app!.id, input) }),
    addDefinition: async ({ caller, input }) => ({ data: await tags.addDefinition(caller.app!.id, input) }),
    edit: async ({ caller, input }) => ({ data: await tags.editCategory(caller.app!.id, input) }),
    remove: ({ caller, input }) => tags.removeCategory(caller.app!.id, input),
    editDefinition: async ({ caller, input }) => ({ data: await tags.editDefinition(caller.app!.id, input) }),
    removeDefinition: ({ caller, input }) => tags.removeDefinition(caller.app!.id, input),
  });
