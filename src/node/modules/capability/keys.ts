/**
 * The "capability" store (cosmos-sdk v0.46 x/capability/types/keys.go):
 *
 *   index                          u64 big-endian: the next capability index (starts at 1)
 *   capability_index{index BE}     cosmos.capability.v1beta1.CapabilityOwners, sorted by "module/name"
 *
 * The SDK's memory store (module/name → index, module/index → name) is not a store here: the
 * keeper keeps those maps in memory and checks every hit against the persisted owners (keeper.ts).
 */
import { CapabilityOwnersSchema } from '../../../gen/cosmos/capability/v1beta1/capability_pb.js';
import { Item, SchemaBuilder, StateMap, protoValue, u64Key, u64Value } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const CAPABILITY_MODULE_NAME = 'capability';
export const capabilityStoreKey = StoreKey.persistent(CAPABILITY_MODULE_NAME);

const schema = new SchemaBuilder(capabilityStoreKey);
export const CapabilityIndex = new Item(schema, 'index', 'index', u64Value);
export const CapabilityOwnersByIndex = new StateMap(schema, 'owners', 'capability_index', u64Key, protoValue(CapabilityOwnersSchema));
export const capabilitySchema = schema.build();
