// Sign-in, registration and logout calls.
import { authContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { AuthService } from './auth.service.js';

export const authRoutes = (auth: AuthService) =>
  implement(authContract, {
    tenantLogin: ({ input }) => auth.tenantLogin(input),
    appLogin: ({ input, appDomain }) => auth.appLogin(appDomain, input),
    register: ({ input }) => auth.register(input),
    tenantLogout: ({ caller }) => auth.logout(caller),
    appLogout: ({ caller }) => auth.logout(caller),
  });
