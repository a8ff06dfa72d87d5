// Every card type's view but the map's, for one lazy chunk: a dashboard opening fetches its views in one request
// instead of ~20 small chunks over the browser's six connections, three or four rounds while its first card frames
// arrive (issue #9). The views are found, not listed: every `<Name>View.tsx` / `<Name>Views.tsx` of a card folder (the
// glob is eager, so they are static imports of this module and stay in its chunk). Definitions take their view from
// here by name through `lazyView` (common/lazyView.ts); the map's view stays a chunk of its own, with Leaflet. Nothing
// imports this module statically.
import type { ComponentType } from 'react';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type View = ComponentType<any>;

const modules = import.meta.glob<Record<string, View>>(['./*/*View.tsx', './*/*Views.tsx', '!./map/**'], {
  eager: true,
});

/** The views by name: a module's exports named `…View`, its default export under its file's name. */
export const views: Readonly<Record<string, View>> = Object.fromEntries(
  Object.entries(modules).flatMap(([file, exports]) =>
    Object.entries(exports)
      .map(([name, view]) => [name === 'default' ? file.replace(/^.*\/|\.tsx$/g, '') : name, view] as const)
      .filter(([name]) => name.endsWith('View')),
  ),
);
