// The component editor's route keys: the dashboard screens' (spec 02 section 2 "Add goes to {path}/add (editor)",
// "Per-card edit goes to {path}/edit/{componentKey} (editor)"), named here for the editor's own modules.
import { ROUTES } from '../routeKeys.js';

export const DASHBOARD_CONF_ROUTE = ROUTES.conf;
export const COMPONENT_ADD_ROUTE = ROUTES.componentAdd;
export const COMPONENT_EDIT_ROUTE = ROUTES.componentEdit;
