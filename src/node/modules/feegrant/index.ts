export * from './keys.js';
export * from './errors.js';
export { FeegrantKeeper } from './keeper.js';
export { feegrantModule } from './module.js';
export { decodeAllowance, type Allowance } from './allowances.js';
