export * from './keys.js';
export * from './errors.js';
export * from './events.js';
export * from './params.js';
export { BankKeeper } from './keeper.js';
export { bankModule } from './module.js';
export { defaultBankGenesis, parseBankGenesis, validateBankGenesis, genesisBalancesTotal } from './genesis.js';
