// The credentials screens inside an application (spec 01 section 2 route keys @credentials...): tenants only, as the
// spec's tenant menu is the only one listing Credentials.
import { lazy } from 'react';
import { T } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const List = lazy(() => import('./CredentialsListPage.js').then((m) => ({ default: m.CredentialsListPage })));
const Form = lazy(() => import('./CredentialsFormPage.js').then((m) => ({ default: m.CredentialsFormPage })));

export const credentialsRoutes: readonly ScreenRoute[] = [
  { key: '@credentials', title: T.nav.credentials, grantedBy: [], screen: List },
  { key: '@credentials/create', title: T.nav.credentials, grantedBy: [], screen: Form },
  { key: '@credentials/update/{id}', title: T.nav.credentials, grantedBy: [], screen: Form },
];
