export * from './keys.js';
export * from './errors.js';
export * from './params.js';
export * from './validator.js';
export { StakingKeeper } from './keeper.js';
export { stakingModule } from './module.js';
export { defaultStakingGenesis, parseStakingGenesis, validateStakingGenesis } from './genesis.js';
