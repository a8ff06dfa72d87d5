// The credentials calls: list, read, create, update, delete, regenerate secret.
import { credentialsContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { CredentialsService } from './credentials.service.js';

export const credentialsRoutes = (service: CredentialsService) =>
  implement(credentialsContract, {
    list: ({ caller }) => ({ data: service.list(caller.app!.id) }),
    read: ({ input, caller }) => ({ data: service.read(caller.app!.id, input.id) }),
    create: ({ input, caller }) => ({ data: service.create(caller.app!.id, input) }),
    update: ({ input, caller }) => ({ data: service.update(caller.app!.id, input) }),
    delete: ({ input, caller }) => service.remove(caller.app!.id, input.id),
    regenerateSecret: ({ input, caller }) => ({ data: service.regenerateSecret(caller.app!.id, input.id) }),
  });
