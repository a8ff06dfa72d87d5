// The credentials screens inside an application (spec 01 section 2 route keys @credentials...): tenants only, as the
// spec's tenant menu is the only one listing Credentials.
import { lazy } from 'react';
import { T } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';
import { routesOf } from '../../shell/routesOf.js';

const List = lazy(() => import('./CredentialsListPage.js').then((m) => ({ default: m.CredentialsListPage })));
const Form = lazy(() => import('./CredentialsFormPage.js').then((m) => ({ default: m.CredentialsFormPage })));

export const credentialsRoutes: readonly ScreenRoute[] = routesOf(T.nav.credentials, [], {
  '@credentials': List,
  '@credentials/create': Form,
  '@credentials/update/{id}': Form,
});
