/**
 * The fee market's store ("feemarket"):
 *
 *   0x01  BlockGas    the last finished block's gas: max(wanted × min_gas_multiplier, used)
 *                     (the next base fee's input)
 *   0x02  Params      ethermint.feemarket.v1.Params (base_fee is the current base fee)
 *   0x03  CurrentGas  gas wanted so far by the block being executed (Ethermint's transient
 *                     block gas wanted; removed in EndBlock, so it is never committed)
 */
import { ParamsSchema } from '../../../gen/ethermint/feemarket/v1/feemarket_pb.js';
import { Item, SchemaBuilder, protoValue, u64Value } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'feemarket';
export const feemarketStoreKey = StoreKey.persistent('feemarket');

const schema = new SchemaBuilder(feemarketStoreKey);

export const BlockGas = new Item(schema, 'block_gas', 0x01, u64Value);
export const Params = new Item(schema, 'params', 0x02, protoValue(ParamsSchema, { shared: true }));
export const CurrentGas = new Item(schema, 'current_gas', 0x03, u64Value);

export const feemarketSchema = schema.build();
