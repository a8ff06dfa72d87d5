// Envelope result codes and HTTP headers of the API conventions (docs/conventions.md "API conventions"): fixed, other
// checks rely on them.
export const Result = {
  OK: 0,
  INVALID: -10,
  NOT_FOUND: -11,
  CONFLICT: -12,
  FORBIDDEN: -13,
  /** HTTP 401: credentials missing or wrong (the body code is informative; clients act on the status) */
  UNAUTHORIZED: -14,
  DEVICE_OFFLINE: -30,
  DEVICE_BUSY: -31,
  DEVICE_TIMEOUT: -32,
  BILLING_EXPIRED: -40,
  /** HTTP 429: too many failed sign-ins (or registrations) from this account or address; retry after the window */
  TOO_MANY_ATTEMPTS: -41,
  /** HTTP 503: the server's storage cannot take writes now (disk full, read-only, I/O error); retry later */
  STORAGE_UNAVAILABLE: -50,
  UNEXPECTED: -99,
} as const;

export const Header = {
  tenantId: 'x-tenant-id',
  tenantToken: 'x-tenant-token',
  accountId: 'x-account-id',
  accountToken: 'x-account-token',
  appDomain: 'x-app-domain',
  credentialsId: 'x-credentials-id',
  credentialsSecret: 'x-credentials-secret',
} as const;

/** System navigation keys a role can grant (docs/conventions.md "Codes of the domain"). */
export const SYS_NAVS = [
  '_dashboard_manage_',
  '_device_manage_',
  '_device_list_',
  '_role_manage_',
  '_user_manage_',
  '_task_list_',
] as const;
export type SysNav = (typeof SYS_NAVS)[number];
