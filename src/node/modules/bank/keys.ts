/**
 * The bank module's store ("bank") and its collections (x/bank 0.50 keeper: prefixes, key and
 * value codecs as upstream):
 *
 *   0x00 ‖ denom                         Supply         → math.Int decimal text
 *   0x01 ‖ denom                         DenomMetadata  → cosmos.bank.v1beta1.Metadata
 *   0x02 ‖ len ‖ address ‖ denom         Balances       → math.Int decimal text (zero balances are removed)
 *   0x03 ‖ denom ‖ 0x00 ‖ len ‖ address  Balances' denom-owners index (address_by_denom_index) → (empty)
 *   0x04 ‖ denom                         SendEnabled    → google.protobuf.BoolValue
 *   0x05                                 Params         → cosmos.bank.v1beta1.Params
 */
import { ParamsSchema, MetadataSchema } from '../../../gen/cosmos/bank/v1beta1/bank_pb.js';
import {
  IndexedMap,
  Item,
  ReversePairIndex,
  SchemaBuilder,
  StateMap,
  bytesKey,
  intValue,
  lengthPrefixedBytesKey,
  pairKey,
  protoBoolValue,
  protoValue,
  stringKey,
} from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const MODULE_NAME = 'bank';
export const STORE_KEY = 'bank';

export const bankStoreKey = StoreKey.persistent(STORE_KEY);

const schema = new SchemaBuilder(bankStoreKey);

/** denom → total supply. */
export const Supply = new StateMap(schema, 'supply', 0x00, stringKey, intValue);

/** base denom → metadata. */
export const DenomMetadata = new StateMap(schema, 'denom_metadata', 0x01, stringKey, protoValue(MetadataSchema));

/** (denom, address) for every non-zero balance: who holds a denom. */
export const DenomOwners = new ReversePairIndex<Uint8Array, string, bigint>(schema, 'address_by_denom_index', 0x03, pairKey(stringKey, lengthPrefixedBytesKey));

/** (address, denom) → amount; never zero (a zero balance is removed). */
export const Balances = new IndexedMap(schema, 'balances', 0x02, pairKey(bytesKey, stringKey), intValue, { denomOwners: DenomOwners });

/** denom → send enabled (only denoms with an explicit flag). */
export const SendEnabled = new StateMap(schema, 'send_enabled', 0x04, stringKey, protoBoolValue);

export const Params = new Item(schema, 'params', 0x05, protoValue(ParamsSchema, { shared: true }));

export const bankSchema = schema.build();
