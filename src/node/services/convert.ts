/**
 * Conversions from the node's stores (consensus types, indexed txs, ABCI results) to the
 * generated protobuf messages the node-level services answer with.
 *
 * TxResponse (COMPAT §5): height, txhash (upper hex), codespace, code, data (upper hex of the
 * TxMsgData bytes), raw_log, logs [] (0.50 no longer parses msg logs), info, gas_wanted,
 * gas_used, tx (Any "/cosmos.tx.v1beta1.Tx"), timestamp (block time, RFC 3339, whole seconds),
 * events.
 */
import { create, fromBinary } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { TxResponseSchema, type TxResponse } from '../../gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../gen/cosmos/crypto/ed25519/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../gen/cosmos/crypto/secp256k1/keys_pb.js';
import { AuthInfoSchema, TxBodySchema, TxRawSchema, TxSchema, type Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { EventAttributeSchema, EventSchema, type Event } from '../../gen/tendermint/abci/types_pb.js';
import { BlockIDSchema, type BlockID } from '../../gen/tendermint/types/types_pb.js';
import type { AbciEvent } from '../abci/types.js';
import { anyPack } from '../codec/index.js';
import type { BlockStoreReader } from '../consensus/store/blockStore.js';
import type { BlockId } from '../consensus/types/block.js';
import { toHexUpper } from '../consensus/types/bytes.js';
import type { PubKey } from '../consensus/types/keys.js';
import type { Timestamp } from '../consensus/types/time.js';
import { queryError } from './types.js';

/** tendermint.abci.Event list of ABCI events. */
export function protoEvents(events: readonly AbciEvent[]): Event[] {
  return events.map((event) =>
    create(EventSchema, {
      type: event.type,
      attributes: event.attributes.map((attr) => create(EventAttributeSchema, { key: attr.key, value: attr.value, index: attr.index })),
    }),
  );
}

/** The decoded form of TxRaw bytes; InvalidArgument (or Internal for stored bytes) when they do not decode. */
export function decodeTx(txBytes: Uint8Array, stored = true): Tx {
  try {
    const raw = fromBinary(TxRawSchema, txBytes);
    return create(TxSchema, {
      body: fromBinary(TxBodySchema, raw.bodyBytes),
      authInfo: fromBinary(AuthInfoSchema, raw.authInfoBytes),
      signatures: raw.signatures,
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    throw queryError(stored ? 'Internal' : 'InvalidArgument', `tx parse error: ${reason}`);
  }
}

/** The whole-second RFC 3339 form of a block time ("2024-01-01T00:00:05Z"), as the SDK prints TxResponse.timestamp. */
export function rfc3339Seconds(time: Timestamp): string {
  return `${new Date(time.seconds * 1000).toISOString().slice(0, 19)}Z`;
}

/** Block time of a stored height as TxResponse.timestamp ("" when the block is not stored). */
export function blockTimestamp(blockStore: Pick<BlockStoreReader, 'loadBlockMeta'>, height: number): string {
  const meta = blockStore.loadBlockMeta(height);
  return meta === undefined ? '' : rfc3339Seconds(meta.header.time);
}

export interface TxResultFields {
  hash: Uint8Array;
  height: number;
  result: {
    code: number;
    data: Uint8Array;
    log: string;
    info: string;
    gasWanted: bigint;
    gasUsed: bigint;
    events: readonly AbciEvent[];
    codespace: string;
  };
}

/** TxResponse of a committed (or checked) tx; `tx` and `timestamp` when known. */
export function txResponse(fields: TxResultFields, tx?: Tx, timestamp = ''): TxResponse {
  const { result } = fields;
  const txAny: Any | undefined = tx === undefined ? undefined : anyPack(TxSchema, tx);
  return create(TxResponseSchema, {
    height: BigInt(fields.height),
    txhash: toHexUpper(fields.hash),
    codespace: result.codespace,
    code: result.code,
    data: toHexUpper(result.data),
    rawLog: result.log,
    logs: [],
    info: result.info,
    gasWanted: result.gasWanted,
    gasUsed: result.gasUsed,
    tx: txAny,
    timestamp,
    events: protoEvents(result.events),
  });
}

/** tendermint.types.BlockID of a consensus BlockId. */
export function protoBlockId(id: BlockId): BlockID {
  return create(BlockIDSchema, { hash: id.hash, partSetHeader: { total: id.partSetHeader.total, hash: id.partSetHeader.hash } });
}

/** A consensus public key as the SDK's Any: /cosmos.crypto.ed25519.PubKey or /cosmos.crypto.secp256k1.PubKey. */
export function pubKeyAny(pubKey: PubKey): Any {
  return pubKey.type === 'ed25519'
    ? anyPack(Ed25519PubKeySchema, create(Ed25519PubKeySchema, { key: pubKey.bytes }))
    : anyPack(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: pubKey.bytes }));
}
