// Sign-in, registration and logout calls.
import type { Request } from 'express';
import { authContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { AuthService } from './auth.service.js';

/** The client address the throttles count by: the connection's peer (no proxy is trusted; docs/decisions/security-access.md). */
const addressOf = (req: Request) => req.socket.remoteAddress ?? '';

export const authRoutes = (auth: AuthService) =>
  implement(authContract, {
    tenantLogin: ({ input, req }) => auth.tenantLogin(input, addressOf(req)),
    appLogin: ({ input, appDomain, req }) => auth.appLogin(appDomain, input, addressOf(req)),
    register: ({ input, req }) => auth.register(input, addressOf(req)),
    tenantLogout: ({ caller }) => auth.logout(caller),
    appLogout: ({ caller }) => auth.logout(caller),
  });
