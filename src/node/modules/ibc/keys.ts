/** The "ibc" store's schema: every core submodule's collections (client, connection, channel). */
import './core/client/keys.js';
import './core/connection/keys.js';
import './core/channel/keys.js';
import { ibcSchemaBuilder } from './store.js';

export { ibcStoreKey } from './store.js';
export const ibcSchema = ibcSchemaBuilder.build();
