/**
 * The connection submodule's state in the "ibc" store, at ibc-go's ICS-24 paths:
 *
 *   nextConnectionSequence            u64 big-endian: the next connection's sequence
 *   connections/{connection-id}       ibc.core.connection.v1.ConnectionEnd
 *   clients/{client-id}/connections   ibc.core.connection.v1.ClientPaths (in the client's store, see
 *                                     ClientStoreView; not client metadata)
 *   connectionParams                  ibc.core.connection.v1.Params (ibc-go v6 keeps them in the
 *                                     x/params subspace "ibc"; later versions at this key)
 */
import { ConnectionEndSchema, ParamsSchema } from '../../../../../gen/ibc/core/connection/v1/connection_pb.js';
import { Item, StateMap, protoValue, stringKey, u64Value } from '../../../../collections/index.js';
import { ibcSchemaBuilder } from '../../store.js';

export const NextConnectionSequence = new Item(ibcSchemaBuilder, 'next_connection_sequence', 'nextConnectionSequence', u64Value);
export const ConnectionParamsItem = new Item(ibcSchemaBuilder, 'connection_params', 'connectionParams', protoValue(ParamsSchema));
export const Connections = new StateMap(ibcSchemaBuilder, 'connections', 'connections/', stringKey, protoValue(ConnectionEndSchema));

/** The key of a client's connection list within its client store. */
export const KEY_CLIENT_CONNECTIONS = 'connections';
