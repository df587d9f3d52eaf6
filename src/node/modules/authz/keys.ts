/**
 * The authz module's store ("authz") and its collections (x/authz/keeper/keys.go, SDK 0.47):
 *
 *   0x01 ‖ len ‖ granter ‖ len ‖ grantee ‖ msg type URL   Grants      → cosmos.authz.v1beta1.Grant
 *   0x02 ‖ time ‖ len ‖ granter ‖ len ‖ grantee           GrantQueue  → cosmos.authz.v1beta1.GrantQueueItem
 *
 * (time = sdk.FormatTimeBytes of the expiration, so the queue iterates in expiry order; the
 * queue item lists the type URLs of that pair's grants expiring at that time.)
 */
import { GrantQueueItemSchema, GrantSchema } from '../../../gen/cosmos/authz/v1beta1/authz_pb.js';
import { SchemaBuilder, StateMap, lengthPrefixedBytesKey, protoValue, stringKey, timeKey, tripleKey } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'authz';
export const STORE_KEY = 'authz';

export const authzStoreKey = StoreKey.persistent(STORE_KEY);

const schema = new SchemaBuilder(authzStoreKey);

/** (granter, grantee, msg type URL) → grant. */
export const Grants = new StateMap(schema, 'grants', 0x01, tripleKey(lengthPrefixedBytesKey, lengthPrefixedBytesKey, stringKey), protoValue(GrantSchema));

/** (expiration ms, granter, grantee) → the type URLs of the pair's grants expiring then. */
export const GrantQueue = new StateMap(schema, 'grant_queue', 0x02, tripleKey(timeKey, lengthPrefixedBytesKey, lengthPrefixedBytesKey), protoValue(GrantQueueItemSchema));

export const authzSchema = schema.build();
