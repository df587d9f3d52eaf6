/**
 * The slashing module's store ("slashing"):
 *
 *   0x00                                 Params               → Params
 *   0x01 ‖ len ‖ consAddr                ValidatorSigningInfo → ValidatorSigningInfo
 *   0x02 ‖ len ‖ consAddr ‖ index (u64)  MissedBlocks         → google.protobuf.BoolValue (only missed ones stored)
 */
import { ParamsSchema, ValidatorSigningInfoSchema } from '../../../gen/cosmos/slashing/v1beta1/slashing_pb.js';
import { Item, SchemaBuilder, StateMap, lengthPrefixedBytesKey, pairKey, protoBoolValue, protoValue, u64Key } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'slashing';
export const slashingStoreKey = StoreKey.persistent(MODULE_NAME);

const schema = new SchemaBuilder(slashingStoreKey);

export const Params = new Item(schema, 'params', 0x00, protoValue(ParamsSchema));
export const SigningInfos = new StateMap(schema, 'validator_signing_info', 0x01, lengthPrefixedBytesKey, protoValue(ValidatorSigningInfoSchema));
export const MissedBlocks = new StateMap(schema, 'validator_missed_block_bit_array', 0x02, pairKey(lengthPrefixedBytesKey, u64Key), protoBoolValue);

export const slashingSchema = schema.build();
