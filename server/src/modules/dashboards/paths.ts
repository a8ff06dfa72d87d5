// A dashboard's path, derived from its label: the route segment of the dashboard and of its custom menu entry
// (`/{domain}/{path}`). No underscore (the menu treats paths with one as system keys), unique per application.

export const PATH_MAX = 48;
/** Segments of the application area that are not dashboards (`/{domain}/login`). */
const RESERVED_PATHS = new Set(['login', 'logout', 'registration', 'expire', 'admin']);

/** 'Kebun Sawit — Blok 2' → 'kebun-sawit-blok-2'; a label without letters or digits gives 'dashboard'. */
export function pathBase(label: string): string {
  const base = label
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, PATH_MAX)
    .replace(/-+$/, '');
  return base || 'dashboard';
}

/** The first of base, base-2, base-3 … that is not taken and not reserved. */
export function uniquePath(label: string, taken: (path: string) => boolean): string {
  const base = pathBase(label);
  const free = (p: string) => !RESERVED_PATHS.has(p) && !taken(p);
  if (free(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = `${base.slice(0, PATH_MAX - suffix.length).replace(/-+$/, '')}${suffix}`;
    if (free(candidate)) return candidate;
  }
}
