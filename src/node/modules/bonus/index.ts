export * from './keys.js';
export * from './params.js';
export { BonusKeeper, EVENT_TYPE_BONUS } from './keeper.js';
export { bonusModule } from './module.js';
export { defaultBonusGenesis, parseBonusGenesis, validateBonusGenesis } from './genesis.js';
