// The user account calls and the refresh token calls of the signed-in principal.
import { refreshTokenContract, usersContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { UsersService } from './users.service.js';
import type { RefreshTokenService } from './refresh-token.service.js';

export const usersRoutes = (users: UsersService) =>
  implement(usersContract, {
    list: async ({ caller }) => ({ data: await users.list(caller.app!.id) }),
    add: async ({ input, caller }) => ({ data: await users.add(caller, input) }),
    get: async ({ input, caller }) => ({ data: await users.get(caller.app!.id, input.id) }),
    edit: async ({ input, caller }) => ({ data: await users.edit(caller, input) }),
    remove: ({ input, caller }) => users.remove(caller, input.id),
    changePassword: ({ input, caller }) => users.changePassword(caller, input),
  });

export const refreshTokenRoutes = (tokens: RefreshTokenService) =>
  implement(refreshTokenContract, {
    get: ({ caller }) => tokens.current(caller),
    gen: ({ caller }) => tokens.regenerate(caller),
    exchange: ({ input, appDomain }) => tokens.exchange(appDomain, input.refresh_token),
  });
