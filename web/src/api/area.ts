// Which principal and application a browser path belongs to (spec 01 "Route conventions"): /admin/... is the tenant
// area, /admin/{domain}/... a tenant inside an application, /{domain}/... an application user's area.

/** First segments under /admin/ that are tenant screens, not application domains. */
export const TENANT_SCREENS: ReadonlySet<string> = new Set(['login', 'registration', 'apps']);

/** First path segments that are never an application domain. */
export const RESERVED_SEGMENTS: ReadonlySet<string> = new Set([
  'admin',
  'pages',
  'expire',
  'app',
  'apps',
  'lora_gates',
  'application',
  'applications',
]);

/** The application domain pattern of spec 01 section 5 (lowercase letter first; letters, digits, underscore; ≤ 64). */
export const DOMAIN_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

export interface Area {
  isTenant: boolean;
  /** the application the path is inside, if any */
  domain?: string;
}

export function areaOf(pathname: string): Area {
  const [first, second] = pathname.split('/').filter(Boolean);
  if (first === 'admin') {
    return second && !TENANT_SCREENS.has(second) ? { isTenant: true, domain: second } : { isTenant: true };
  }
  if (first && !RESERVED_SEGMENTS.has(first) && DOMAIN_PATTERN.test(first)) return { isTenant: false, domain: first };
  return { isTenant: pathname.includes('/admin/') };
}

/** Where a principal signs in. */
export function loginPathOf(area: Area): string {
  return area.isTenant || !area.domain ? '/admin/login' : `/${area.domain}/login`;
}
