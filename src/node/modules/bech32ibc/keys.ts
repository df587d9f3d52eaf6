/**
 * The bech32ibc module's store ("bech32ibc", osmosis-labs/bech32-ibc x/bech32ibc/types/keys.go):
 *
 *   "native_hrp"             the chain's own bech32 prefix (UTF-8)
 *   "hrp_ibc_record" ‖ hrp   bech32ibc.bech32ibc.v1beta1.HrpIbcRecord
 */
import { HrpIbcRecordSchema } from '../../../gen/bech32ibc/bech32ibc/v1beta1/types_pb.js';
import { Item, SchemaBuilder, StateMap, protoValue, stringKey, stringValue } from '../../collections/index.js';
import { StoreKey } from '../../store/storeKey.js';

export const BECH32IBC_MODULE_NAME = 'bech32ibc';
export const bech32ibcStoreKey = StoreKey.persistent(BECH32IBC_MODULE_NAME);

const schema = new SchemaBuilder(bech32ibcStoreKey);

export const NativeHrp = new Item(schema, 'native_hrp', 'native_hrp', stringValue);
export const HrpIbcRecords = new StateMap(schema, 'hrp_ibc_records', 'hrp_ibc_record', stringKey, protoValue(HrpIbcRecordSchema));

export const bech32ibcSchema = schema.build();
