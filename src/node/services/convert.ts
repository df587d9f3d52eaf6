/**
 * Conversions from the node's stores (consensus types, indexed txs, ABCI results) to the
 * generated protobuf messages the node-level services answer with. TxResponse is built by
 * codec/txResponse.ts, shared with the CLI.
 */
import { create } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { PubKeySchema as Ed25519PubKeySchema } from '../../gen/cosmos/crypto/ed25519/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../gen/cosmos/crypto/secp256k1/keys_pb.js';
import type { Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { BlockIDSchema, type BlockID } from '../../gen/tendermint/types/types_pb.js';
import { anyPack } from '../codec/index.js';
import { txFromRawBytes } from '../codec/txResponse.js';
import type { BlockStoreReader } from '../consensus/store/blockStore.js';
import type { BlockId } from '../consensus/types/block.js';
import type { PubKey } from '../consensus/types/keys.js';
import type { Timestamp } from '../consensus/types/time.js';
import { queryError } from './types.js';

/** The decoded form of TxRaw bytes; InvalidArgument (or Internal for stored bytes) when they do not decode. */
export function decodeTx(txBytes: Uint8Array, stored = true): Tx {
  try {
    return txFromRawBytes(txBytes);
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
