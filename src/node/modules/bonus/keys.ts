/**
 * The bonus module's store ("bonus") and its one collection:
 *
 *   0x00   Params → aioz.bonus.v1.Params
 *
 * The pool is not module state: it is the bonus module account's bank balance.
 */
import { ParamsSchema } from '../../../gen/aioz/bonus/v1/params_pb.js';
import { Item, SchemaBuilder, protoValue } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'bonus';
export const STORE_KEY = 'bonus';
/** The pre-funded pool: module account "bonus" (address sha256("bonus")[:20]), no permissions. */
export const BONUS_POOL_NAME = 'bonus';
/** x/auth's fee collector: the bonus is paid there, for distribution. */
export const FEE_COLLECTOR_NAME = 'fee_collector';

export const bonusStoreKey = StoreKey.persistent(STORE_KEY);

const schema = new SchemaBuilder(bonusStoreKey);

export const Params = new Item(schema, 'params', 0x00, protoValue(ParamsSchema, { shared: true }));

export const bonusSchema = schema.build();
