/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** origin of the /service calls; empty = same origin */
  readonly VITE_SERVICE_BASE?: string;
  /** origin of the /fetch calls; empty = same origin */
  readonly VITE_FETCH_BASE?: string;
  /** default request time-out in ms (30000) */
  readonly VITE_REQUEST_TIMEOUT?: string;
}
