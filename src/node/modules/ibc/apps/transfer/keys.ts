/**
 * The ICS-20 transfer module's store ("transfer") and its collections, at ibc-go v6's keys:
 *
 *   0x01                 Port         → the bound port id, as text ("transfer")
 *   0x02 ‖ hash (32)     DenomTraces  → ibc.applications.transfer.v1.DenomTrace, keyed by
 *                                       sha256 of the trace's full path ("transfer/channel-0/uatom")
 *   "params"             Params       → ibc.applications.transfer.v1.Params (the x/params
 *                                       subspace "transfer" reads and changes them)
 */
import { DenomTraceSchema, ParamsSchema } from '../../../../../gen/ibc/applications/transfer/v1/transfer_pb.js';
import { Item, SchemaBuilder, StateMap, bytesKey, protoValue, stringValue } from '../../../../collections/index.js';
import { StoreKey } from '../../../../store/storeKey.js';

/** Module name: app_state key, store, codespace, module account. */
export const TRANSFER_MODULE_NAME = 'transfer';
/** The port the module binds at genesis. */
export const TRANSFER_PORT_ID = 'transfer';
/** The channel version ICS-20 speaks. */
export const TRANSFER_VERSION = 'ics20-1';
/** Vouchers are `ibc/<HEX hash>`. */
export const DENOM_PREFIX = 'ibc';

export const transferStoreKey = StoreKey.persistent(TRANSFER_MODULE_NAME);

const schema = new SchemaBuilder(transferStoreKey);

export const Port = new Item(schema, 'port', 0x01, stringValue);
export const DenomTraces = new StateMap(schema, 'denom_traces', 0x02, bytesKey, protoValue(DenomTraceSchema));
export const Params = new Item(schema, 'params', 'params', protoValue(ParamsSchema, { shared: true }));

export const transferSchema = schema.build();
