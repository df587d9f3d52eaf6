/**
 * The staking module's store ("staking") and its collections, at the x/staking 0.50 prefixes
 * (types/keys.go) with the key layouts and value encodings 0.50 stores:
 *
 *   0x11 ‖ len ‖ valAddr                      LastValidatorPower      → google.protobuf.Int64Value
 *   0x12                                      LastTotalPower          → cosmos.base.v1beta1.IntProto
 *   0x21 ‖ len ‖ valAddr                      Validators              → Validator
 *   0x22 ‖ len ‖ consAddr                     ValidatorsByConsAddr    → valAddr
 *   0x23 ‖ power (u64 BE) ‖ len ‖ ^valAddr    ValidatorsByPower       → valAddr   (iterated in reverse:
 *                                             highest power first; equal power: lower address first)
 *   0x31 ‖ len ‖ delAddr ‖ len ‖ valAddr      Delegations             → Delegation
 *   0x50 ‖ height (u64 BE)                    HistoricalInfoByHeight  → HistoricalInfo
 *   0x51                                      Params                  → Params
 *   0x32 ‖ len ‖ delAddr ‖ len ‖ valAddr      UnbondingDelegations    → UnbondingDelegation
 *   0x33 ‖ len ‖ valAddr ‖ len ‖ delAddr      its by-validator index  → (empty)
 *   0x34 ‖ len ‖ del ‖ len ‖ src ‖ len ‖ dst  Redelegations           → Redelegation
 *   0x35 ‖ len ‖ src ‖ len ‖ del ‖ len ‖ dst  by source validator     → (empty)
 *   0x36 ‖ len ‖ dst ‖ len ‖ del ‖ len ‖ src  by destination validator → (empty)
 *   0x41 ‖ time                               UnbondingQueue          → DVPairs
 *   0x42 ‖ time                               RedelegationQueue       → DVVTriplets
 *   0x43 ‖ time ‖ height (u64 BE)             ValidatorQueue          → ValAddresses
 *   0x71 ‖ len ‖ valAddr ‖ len ‖ delAddr      Delegations' by-validator index → (empty)
 *   0x91                                      AcceptAllValidators     → bool (the network's
 *                                             aioz.staking.v1beta1 params field 101)
 *
 * (time = sdk.FormatTimeBytes, 29 bytes, so the queues iterate in time order.)
 *
 * The power and consensus-address tables are kept by the keeper where the SDK keeps them (they
 * follow status and jailing, not just the stored validator); the by-validator index of
 * delegations is a pure function of the key, so the collection keeps it.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { Int64ValueSchema } from '@bufbuild/protobuf/wkt';
import { IntProtoSchema } from '../../../gen/cosmos/base/v1beta1/coin_pb.js';
import {
  DVPairsSchema,
  DVVTripletsSchema,
  DelegationSchema,
  HistoricalInfoSchema,
  ParamsSchema,
  RedelegationSchema,
  UnbondingDelegationSchema,
  ValAddressesSchema,
  ValidatorSchema,
  type Delegation,
  type Redelegation,
  type UnbondingDelegation,
} from '../../../gen/cosmos/staking/v1beta1/staking_pb.js';
import {
  CollectionError,
  IndexedMap,
  Item,
  ReversePairIndex,
  SchemaBuilder,
  StateMap,
  bytesValue,
  lengthPrefixedBytesKey,
  pairKey,
  protoBoolValue,
  protoValue,
  timeKey,
  tripleKey,
  KeySet,
  u64Key,
  type KeyCodec,
  type ValueCodec,
} from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'staking';

/** The staking pools (module accounts holding bonded and not-bonded tokens). */
export const BONDED_POOL_NAME = 'bonded_tokens_pool';
export const NOT_BONDED_POOL_NAME = 'not_bonded_tokens_pool';
export const STORE_KEY = 'staking';

export const stakingStoreKey = StoreKey.persistent(STORE_KEY);

/** A consensus power as gogoproto's Int64Value (what 0.50 stores per last-set validator). */
const powerValue: ValueCodec<bigint> = {
  valueType: 'google.protobuf.Int64Value',
  encode: (power) => toBinary(Int64ValueSchema, create(Int64ValueSchema, { value: power })),
  decode: (bytes) => fromBinary(Int64ValueSchema, bytes).value,
  stringify: (power) => power.toString(),
};

/** A math.Int as sdk.IntProto (what 0.50 stores as the last total power). */
const intProtoValue: ValueCodec<bigint> = {
  valueType: 'cosmos.base.v1beta1.IntProto',
  encode: (value) => toBinary(IntProtoSchema, create(IntProtoSchema, { int: value.toString() })),
  decode(bytes) {
    const text = fromBinary(IntProtoSchema, bytes).int;
    if (!/^-?[0-9]+$/.test(text)) throw new CollectionError('DECODING', `cannot decode cosmos.base.v1beta1.IntProto value: "${text}" is not an integer`);
    return BigInt(text);
  },
  stringify: (value) => value.toString(),
};

/**
 * An operator address length-prefixed with every byte inverted (GetValidatorsByPowerIndexKey), so
 * that a descending walk of the power index meets equal powers in ascending address order.
 */
const invertedAddressKey: KeyCodec<Uint8Array> = {
  keyType: 'bytes(length-prefixed, inverted)',
  size: (key) => lengthPrefixedBytesKey.size(key),
  sizeNonTerminal: (key) => lengthPrefixedBytesKey.sizeNonTerminal(key),
  encode(key, out, offset) {
    const end = lengthPrefixedBytesKey.encode(key, out, offset);
    for (let i = offset + 1; i < end; i++) out[i] = ~out[i]! & 0xff;
    return end;
  },
  encodeNonTerminal(key, out, offset) {
    return invertedAddressKey.encode(key, out, offset);
  },
  decode: (bytes, offset, end) => lengthPrefixedBytesKey.decode(bytes, offset, end).map((byte) => ~byte & 0xff),
  decodeNonTerminal(bytes, offset) {
    const part = lengthPrefixedBytesKey.decodeNonTerminal(bytes, offset);
    return { key: part.key.map((byte) => ~byte & 0xff), next: part.next };
  },
  stringify: (key) => lengthPrefixedBytesKey.stringify(key),
};

const schema = new SchemaBuilder(stakingStoreKey);

/** operator address → consensus power, for the validators of the last set. */
export const LastValidatorPower = new StateMap(schema, 'last_validator_power', 0x11, lengthPrefixedBytesKey, powerValue);

export const LastTotalPower = new Item(schema, 'last_total_power', 0x12, intProtoValue);

/** operator address → validator. */
export const Validators = new StateMap(schema, 'validators', 0x21, lengthPrefixedBytesKey, protoValue(ValidatorSchema));

/** consensus address → operator address. */
export const ValidatorsByConsAddr = new StateMap(schema, 'validator_by_cons_addr', 0x22, lengthPrefixedBytesKey, bytesValue);

/** (potential consensus power, operator address) → operator address; jailed validators are left out. */
export const ValidatorsByPower = new StateMap(schema, 'validators_by_power', 0x23, pairKey(u64Key, invertedAddressKey), bytesValue);

/** (operator address, delegator address) for every delegation. */
export const DelegationsByValidator = new ReversePairIndex<Uint8Array, Uint8Array, Delegation>(schema, 'delegations_by_validator', 0x71, pairKey(lengthPrefixedBytesKey, lengthPrefixedBytesKey));

/** (delegator address, operator address) → delegation. */
export const Delegations = new IndexedMap(schema, 'delegations', 0x31, pairKey(lengthPrefixedBytesKey, lengthPrefixedBytesKey), protoValue(DelegationSchema), {
  byValidator: DelegationsByValidator,
});

/** height → the header and validator set of that block. */
export const HistoricalInfoByHeight = new StateMap(schema, 'historical_info', 0x50, u64Key, protoValue(HistoricalInfoSchema));

export const Params = new Item(schema, 'params', 0x51, protoValue(ParamsSchema, { shared: true }));

const lp = lengthPrefixedBytesKey;

/** (operator address, delegator address) for every unbonding delegation. */
export const UnbondingDelegationsByValidator = new ReversePairIndex<Uint8Array, Uint8Array, UnbondingDelegation>(schema, 'unbonding_delegations_by_validator', 0x33, pairKey(lp, lp));

/** (delegator address, operator address) → unbonding delegation. */
export const UnbondingDelegations = new IndexedMap(schema, 'unbonding_delegations', 0x32, pairKey(lp, lp), protoValue(UnbondingDelegationSchema), {
  byValidator: UnbondingDelegationsByValidator,
});

/** (delegator, source, destination) → redelegation. */
export const Redelegations = new StateMap(schema, 'redelegations', 0x34, tripleKey(lp, lp, lp), protoValue(RedelegationSchema));

/** (source, delegator, destination) for every redelegation. */
export const RedelegationsBySrc = new KeySet(schema, 'redelegations_by_src', 0x35, tripleKey(lp, lp, lp));

/** (destination, delegator, source) for every redelegation. */
export const RedelegationsByDst = new KeySet(schema, 'redelegations_by_dst', 0x36, tripleKey(lp, lp, lp));

/** completion time → the (delegator, validator) pairs whose unbonding completes then. */
export const UnbondingQueue = new StateMap(schema, 'unbonding_queue', 0x41, timeKey, protoValue(DVPairsSchema));

/** completion time → the redelegations that complete then. */
export const RedelegationQueue = new StateMap(schema, 'redelegation_queue', 0x42, timeKey, protoValue(DVVTripletsSchema));

/** (unbonding time, unbonding height) → validators that finish unbonding then. */
export const ValidatorQueue = new StateMap(schema, 'validator_queue', 0x43, pairKey(timeKey, u64Key), protoValue(ValAddressesSchema));

/** The network's `accept_all_validators` (false: MsgCreateValidator is refused). */
export const AcceptAllValidators = new Item(schema, 'accept_all_validators', 0x91, protoBoolValue);

export type { Redelegation };

export const stakingSchema = schema.build();
