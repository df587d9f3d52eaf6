/**
 * The mint module's store ("mint") and its one collection:
 *
 *   0x01   Params → aioz.mint.v1.Params
 *
 * (0x00 is the SDK mint's Minter record; this module keeps no minter: the per-block rate is a
 * parameter and the supply it applies to is the bank's.)
 */
import { ParamsSchema } from '../../../gen/aioz/mint/v1/mint_pb.js';
import { Item, SchemaBuilder, protoValue } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'mint';
export const STORE_KEY = 'mint';
/** The mint module account (Minter permission): new coins land here before they are paid out. */
export const MINT_MODULE_ACCOUNT = 'mint';
/** x/auth's fee collector: what the allocations leave goes there, for distribution. */
export const FEE_COLLECTOR_NAME = 'fee_collector';

export const mintStoreKey = StoreKey.persistent(STORE_KEY);

const schema = new SchemaBuilder(mintStoreKey);

export const Params = new Item(schema, 'params', 0x01, protoValue(ParamsSchema, { shared: true }));

export const mintSchema = schema.build();
