// The Rule screens (spec 03 section 2.9): the list, the manual form (_rule_add_, _rule_edit_/{id}) and the editor
// wizard's create and update routes. An application user reaches them with _device_manage_, as the server's rule calls
// (docs/decisions/rules.md "Who may call").
import { lazy } from 'react';
import { RULE_ACCESS, T } from '@sentra/contracts';
import type { ScreenRoute } from '../../shell/routeRegistry.js';

const List = lazy(() => import('./RuleListPage.js').then((m) => ({ default: m.RuleListPage })));
const Manual = lazy(() => import('./RuleManualPage.js').then((m) => ({ default: m.RuleManualPage })));
const Wizard = lazy(() => import('./RuleWizardPage.js').then((m) => ({ default: m.RuleWizardPage })));

/** The editor's route keys: create (no id) and update (with the rule's id), per step (spec 03 section 2.9). */
export const EditorRoute = {
  info: '_rule_editor_/info',
  trigger: '_rule_editor_/trigger',
  action: '_rule_editor_/action',
  newTask: '_rule_editor_/action/task',
  task: '_rule_editor_/action/task/{taskId}',
  editInfo: '_rule_editor_/info/{id}',
  editTrigger: '_rule_editor_/trigger/{id}',
  editAction: '_rule_editor_/action/{id}',
  editTask: '_rule_editor_/action/task/{id}/{taskId}',
} as const;

export const RuleRoute = { list: '_rule_list_', add: '_rule_add_', edit: '_rule_edit_/{id}' } as const;

const grantedBy = RULE_ACCESS.navs;
const title = T.rules.title;

export const ruleRoutes: readonly ScreenRoute[] = [
  { key: RuleRoute.list, title, grantedBy, screen: List },
  { key: RuleRoute.add, title, grantedBy, screen: Manual },
  { key: RuleRoute.edit, title, grantedBy, screen: Manual },
  ...Object.values(EditorRoute).map((key) => ({ key, title, grantedBy, screen: Wizard })),
];
