// The console's one requester: base addresses and time-out from the Vite environment, credentials from the stored
// sessions, the area from the current path. The shell installs the global 401/402 reactions at start.
import { areaOf, type Area } from './area.js';
import { createRequester } from './request.js';
import { sessionStore } from '../session/storage.js';

export interface GlobalHandlers {
  onUnauthorized?(area: Area): void;
  onPaymentRequired?(info: { isTenant: boolean }): void;
}

let handlers: GlobalHandlers = {};

export function setGlobalHandlers(next: GlobalHandlers): void {
  handlers = next;
}

const timeout = Number(import.meta.env.VITE_REQUEST_TIMEOUT);

export const api = createRequester({
  serviceBase: import.meta.env.VITE_SERVICE_BASE ?? '',
  fetchBase: import.meta.env.VITE_FETCH_BASE ?? '',
  timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : 30_000,
  fetch: (input, init) => fetch(input, init),
  tenant: () => sessionStore.read({ kind: 'tenant' }),
  account: (domain) => sessionStore.read({ kind: 'member', domain }),
  area: () => areaOf(window.location.pathname),
  onUnauthorized: (area) => handlers.onUnauthorized?.(area),
  onPaymentRequired: (info) => handlers.onPaymentRequired?.(info),
});
