// The Tugas screens (spec 03 section 2.10): the list and Manage Task (action/{id}), granted by _task_list_.
import { lazy } from 'react';
import { T, TASK_ACCESS } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';
import { routesOf } from '../../shell/routesOf.js';

const List = lazy(() => import('./TaskListPage.js').then((m) => ({ default: m.TaskListPage })));
const Manage = lazy(() => import('./ManageTaskPage.js').then((m) => ({ default: m.ManageTaskPage })));

export const TaskRoute = { list: '_task_list_', manage: '_task_action_/{id}' } as const;

export const taskRoutes: readonly ScreenRoute[] = routesOf(T.tasks.title, TASK_ACCESS.navs, {
  [TaskRoute.list]: List,
  [TaskRoute.manage]: Manage,
});
