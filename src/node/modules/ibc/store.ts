/**
 * The IBC store ("ibc", as ibc-go's host.StoreKey): one KV store shared by the core submodules,
 * keyed by ICS-24 paths (`clients/…`, later `connections/…`, `channelEnds/…`, `commitments/…`),
 * so a counterparty proves a path with the store's ICS-23 proofs (`/store/ibc/key`). Each
 * submodule declares its collections on this builder in its own keys.ts; keys.ts builds the schema.
 */
import { SchemaBuilder } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const IBC_MODULE_NAME = 'ibc';
export const ibcStoreKey = StoreKey.persistent(IBC_MODULE_NAME);
export const ibcSchemaBuilder = new SchemaBuilder(ibcStoreKey);
