// The Tugas screens (spec 03 section 2.10): the list and Manage Task (action/{id}), granted by _task_list_.
import { lazy } from 'react';
import { T, TASK_ACCESS } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const List = lazy(() => import('./TaskListPage.js').then((m) => ({ default: m.TaskListPage })));
const Manage = lazy(() => import('./ManageTaskPage.js').then((m) => ({ default: m.ManageTaskPage })));

export const TaskRoute = { list: '_task_list_', manage: '_task_action_/{id}' } as const;

export const taskRoutes: readonly ScreenRoute[] = [
  { key: TaskRoute.list, title: T.tasks.title, grantedBy: TASK_ACCESS.navs, screen: List },
  { key: TaskRoute.manage, title: T.tasks.title, grantedBy: TASK_ACCESS.navs, screen: Manage },
];
