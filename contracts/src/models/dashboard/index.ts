// conf_dashboard v2: the stored dashboard, its components, variables, filters and queries, and the selection tree.
export * from './query.js';
export * from './filters.js';
export * from './variables.js';
export * from './component.js';
export * from './confDashboard.js';
export * from './deviceTree.js';
export * from './templates.js';
