export * from './genesis.js';
export { genutilModule, type GenutilStakingKeeper } from './module.js';
