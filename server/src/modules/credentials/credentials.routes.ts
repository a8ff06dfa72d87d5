// The credentials calls: list, read, create, update, delete, regenerate secret.
import { credentialsContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { CredentialsService } from './credentials.service.js';

export const credentialsRoutes = (service: CredentialsService) =>
  implement(credentialsContract, {
    list: async ({ caller }) => ({ data: await service.list(caller.app!.id) }),
    read: async ({ input, caller }) => ({ data: await service.read(caller.app!.id, input.id) }),
    create: async ({ input, caller }) => ({ data: await service.create(caller.app!.id, input) }),
    update: async ({ input, caller }) => ({ data: await service.update(caller.app!.id, input) }),
    delete: ({ input, caller }) => service.remove(caller.app!.id, input.id),
    regenerateSecret: async ({ input, caller }) => ({ data: await service.regenerateSecret(caller.app!.id, input.id) }),
  });
