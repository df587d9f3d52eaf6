export * from './genesis.js';
export { GenutilModule, type DeliverGenTx, type GenutilStakingKeeper } from './module.js';
