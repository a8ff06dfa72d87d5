// The dashboard screens' route keys (spec 02 section 2; the component routes hang under the config view's path).
export const ROUTES = {
  list: '_dashboard_list_',
  add: '_dashboard_add_',
  edit: '_dashboard_edit_/{id}',
  conf: '_dashboard_conf_/{path}',
  view: '_dashboard_view_/{id}',
  componentAdd: '_dashboard_conf_/{path}/add',
  componentEdit: '_dashboard_conf_/{path}/edit/{componentKey}',
  manualAdd: '_dashboard_conf_/{path}/manual_add',
  manualEdit: '_dashboard_conf_/{path}/manual_edit/{componentKey}',
} as const;
