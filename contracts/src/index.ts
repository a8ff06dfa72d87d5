// @sentra/contracts: zod schemas, the route table and the text catalogue shared by server, web and simulator.
export * from './codes.js';
export * from './http/define.js';
export * from './http/index.js';
export * from './http/auth.js';
export * from './http/apps.js';
export * from './http/credentials.js';
export * from './http/users.js';
export * from './http/roles.js';
export * from './http/navs.js';
export * from './models/fields.js';
export * from './models/nav.js';
export * from './models/access.js';
export * from './models/dashboard/index.js';
export * from './catalogue/index.js';
export * from './text/id.js';
export * from './openapi.js';
