// Tag category calls, each answered inside the caller's application only.
import { tagsContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { TagsService } from './tags.service.js';

export const tagsRoutes = (tags: TagsService) =>
  implement(tagsContract, {
    all: ({ caller }) => ({ categories: tags.all(caller.app!.id) }),
    list: ({ caller, input }) => tags.list(caller.app!.id, input),
    exists: ({ caller, input }) => tags.exists(caller.app!.id, input),
    add: ({ caller, input }) => ({ data: tags.addCategory(caller.app!.id, input) }),
    addDefinition: ({ caller, input }) => ({ data: tags.addDefinition(caller.app!.id, input) }),
    edit: ({ caller, input }) => ({ data: tags.editCategory(caller.app!.id, input) }),
    remove: ({ caller, input }) => tags.removeCategory(caller.app!.id, input),
    editDefinition: ({ caller, input }) => ({ data: tags.editDefinition(caller.app!.id, input) }),
    removeDefinition: ({ caller, input }) => tags.removeDefinition(caller.app!.id, input),
  });
