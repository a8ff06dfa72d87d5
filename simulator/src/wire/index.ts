// The wire formats of every family (docs/conventions.md "Device topics"), one module each.
export * from './types.js';
export * from './generic.js';
export * from './tasmota.js';
export * from './lora.js';
export * from './gateway.js';
export * from './faults.js';
