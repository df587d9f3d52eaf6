/** The "ibc" store's schema: every core submodule's collections (core/client/keys.ts so far). */
import './core/client/keys.js';
import './core/connection/keys.js';
import { ibcSchemaBuilder } from './store.js';

export { ibcStoreKey } from './store.js';
export const ibcSchema = ibcSchemaBuilder.build();
