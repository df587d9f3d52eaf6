export * from './keys.js';
export * from './params.js';
export * from './inflation.js';
export { MintKeeper, EVENT_TYPE_MINT, ATTRIBUTE_KEY_INFLATION, type BlockMint } from './keeper.js';
export { mintModule } from './module.js';
export { defaultMintGenesis, parseMintGenesis, validateMintGenesis } from './genesis.js';
