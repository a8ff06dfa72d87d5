// Before the console's first render: the chunks of the page the address names (the top-level route's lazy page and,
// inside an application area, the screen the rest of the address names) are requested together instead of one after
// the other as each level renders, and the first render waits for them. It then mounts the page without a loading
// fallback; a fallback shown would also make React hold back the page's reveal for 300 ms (its Suspense retry
// throttle: measured on the 30-card dashboard, the record was asked for only ~0.2 s after its chunks had arrived).
import { matchPath, matchRoutes } from 'react-router';
import { preloadLazy } from '../ui/preloadLazy.js';
import { router, type PageHandle } from './router.js';

/** `/admin/{domain}/{rest}` or `/{domain}/{rest}`: the rest, inside an application area. */
export function areaRest(pathname: string): string | undefined {
  const tenant = /^\/admin\/([^/]+)\/(.+)$/.exec(pathname);
  if (tenant) return tenant[1] === 'apps' ? undefined : tenant[2];
  const member = /^\/([^/]+)\/(.+)$/.exec(pathname);
  return member && !['admin', 'pages'].includes(member[1]!) ? member[2] : undefined;
}

/** The screens of the application area the rest of an address names (usually one). */
export function screensAt<R extends { key: string }>(
  routes: readonly R[],
  rest: string,
  routePath: (key: string) => string,
): R[] {
  return routes.filter((r) => matchPath({ path: `/${routePath(r.key)}`, end: true }, `/${rest}`));
}

export async function preloadRoute(pathname: string): Promise<void> {
  const jobs: Promise<unknown>[] = [];
  for (const m of matchRoutes(router.routes, pathname) ?? []) {
    const page = (m.route.handle as PageHandle | undefined)?.page;
    if (page) jobs.push(preloadLazy(page));
  }
  const rest = areaRest(pathname);
  if (rest) {
    jobs.push(
      import('./routeRegistry.js').then(({ screenRoutes, routePath }) =>
        Promise.all(screensAt(screenRoutes, rest, routePath).map((r) => preloadLazy(r.screen))),
      ),
    );
  }
  await Promise.all(jobs);
}

/** `preloadRoute`, waiting at most `maxMs` (a slow network shows the loading fallback as before). */
export function preloadRouteWithin(pathname: string, maxMs: number): Promise<void> {
  return Promise.race([preloadRoute(pathname).catch(() => undefined), new Promise<void>((r) => setTimeout(r, maxMs))]);
}
