export * from './account.js';
export * from './keys.js';
export * from './params.js';
export { AccountKeeper } from './keeper.js';
export { authModule } from './module.js';
export { defaultAuthGenesis, parseAuthGenesis, validateAuthGenesis, genesisAccounts, sanitizeGenesisAccounts } from './genesis.js';
