export * from './address.js';
export * from './coins.js';
export * from './context.js';
export * from './dec.js';
export * from './errors.js';
export * from './events.js';
export * from './keys.js';
export * from './module.js';
