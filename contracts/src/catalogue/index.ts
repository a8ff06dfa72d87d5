// The dashboards catalogue: every code, option and limit of spec 02 once, as data the schema, editor and server read.
export * from './cardTypes.js';
export * from './editorCategories.js';
export * from './units.js';
export * from './queries.js';
export * from './filters.js';
export * from './variables.js';
export * from './limits.js';
