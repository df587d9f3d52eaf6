/**
 * The feegrant module's store ("feegrant") and its collections (x/feegrant/key.go, SDK 0.47):
 *
 *   0x00 ‖ len ‖ grantee ‖ len ‖ granter          Allowances      → cosmos.feegrant.v1beta1.Grant
 *   0x01 ‖ time ‖ len ‖ grantee ‖ len ‖ granter   AllowanceQueue  → (empty)
 *
 * (time = sdk.FormatTimeBytes of the allowance's expiration: the queue iterates in expiry order.)
 */
import { GrantSchema } from '../../../gen/cosmos/feegrant/v1beta1/feegrant_pb.js';
import { KeySet, SchemaBuilder, StateMap, lengthPrefixedBytesKey, pairKey, protoValue, timeKey, tripleKey } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'feegrant';
export const STORE_KEY = 'feegrant';

export const feegrantStoreKey = StoreKey.persistent(STORE_KEY);

const schema = new SchemaBuilder(feegrantStoreKey);

/** (grantee, granter) → the allowance. */
export const Allowances = new StateMap(schema, 'allowances', 0x00, pairKey(lengthPrefixedBytesKey, lengthPrefixedBytesKey), protoValue(GrantSchema));

/** (expiration ms, grantee, granter): allowances by the time they expire. */
export const AllowanceQueue = new KeySet(schema, 'allowance_queue', 0x01, tripleKey(timeKey, lengthPrefixedBytesKey, lengthPrefixedBytesKey));

export const feegrantSchema = schema.build();
