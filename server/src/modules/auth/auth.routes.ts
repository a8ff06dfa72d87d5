// Sign-in, registration and logout calls.
import { authContract } from '@sentra/contracts';
import { implement } from '../../platform/http/mount.js';
import type { AuthService } from './auth.service.js';
import { clientAddressOf, type ClientAddress } from '../../platform/http/client-address.js';

/**
 * `addressOf`: the client address the throttles count by, the connection's peer or what a trusted load balancer
 * forwarded (TRUST_PROXY, platform/http/client-address.ts)
 */
export const authRoutes = (auth: AuthService, addressOf: ClientAddress = clientAddressOf()) =>
  implement(authContract, {
    tenantLogin: ({ input, req }) => auth.tenantLogin(input, addressOf(req)),
    appLogin: ({ input, appDomain, req }) => auth.appLogin(appDomain, input, addressOf(req)),
    register: ({ input, req }) => auth.register(input, addressOf(req)),
    tenantLogout: ({ caller }) => auth.logout(caller),
    appLogout: ({ caller }) => auth.logout(caller),
  });
