/**
 * eth_getProof as Ethermint v0.22 answers it (rpc/backend/account_info.go): the account's ICS23
 * proof in the auth store (`acc`, key 0x01 ‖ address) and one proof per storage key in the evm
 * store (`evm`, the Storage collection's key of (address, slot)), each the `abci_query
 * store/<name>/key prove=true` proof ops at the block's height rendered as hex strings of the
 * ops' data (`ics23:iavl` then `ics23:simple`; they verify against the app hash of the header at
 * height + 1). Balance, nonce and code hash come from the evm Account query at that height; the
 * storage hash is the zero hash (Ethermint keeps no per-account storage trie).
 *
 * Heights as Ethermint: latest / pending / safe / finalized are the latest block, earliest is 1, a
 * block not in the block store is "header not found" (an unknown block hash "block not found for
 * hash …"), and heights ≤ 2 are refused ("proof queries at height <= 2 are not supported").
 */
import { bytesToHex } from '@ethereumjs/util';
import { Accounts } from '../modules/auth/keys.js';
import { Storage } from '../modules/evm/keys.js';
import { EthRpcError, hex, type EthBackend } from './backend.js';

const ZERO_HASH = `0x${'0'.repeat(64)}`;

/** go-ethereum's common.HexToHash: optional 0x, odd length padded, the last 32 bytes, left-padded. */
export function hexToHash(text: string): Uint8Array {
  let digits = text.startsWith('0x') || text.startsWith('0X') ? text.slice(2) : text;
  if (digits.length % 2 === 1) digits = `0${digits}`;
  // Go's Hex2Bytes keeps the bytes decoded before the first invalid pair.
  const valid = /^(?:[0-9a-fA-F]{2})*/.exec(digits)![0];
  const bytes = Buffer.from(valid, 'hex');
  const out = new Uint8Array(32);
  const tail = bytes.subarray(Math.max(0, bytes.length - 32));
  out.set(tail, 32 - tail.length);
  return out;
}

/** The block height eth_getProof reads at, Ethermint's way. */
function proofHeight(b: EthBackend, tag: unknown): number {
  const latest = b.latestHeight();
  let height: number;
  if (tag === undefined || tag === null || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') height = latest;
  else if (tag === 'earliest') height = 1;
  else if (typeof tag === 'object' && !Array.isArray(tag) && 'blockHash' in tag) {
    const hash = String((tag as { blockHash: unknown }).blockHash);
    const block = b.blockByHash(hash);
    if (block === undefined) throw new EthRpcError(-32000, `block not found for hash ${hash.toLowerCase()}`);
    height = block.header.height;
  }
  else if (typeof tag === 'object' && !Array.isArray(tag) && 'blockNumber' in tag) return proofHeight(b, (tag as { blockNumber: unknown }).blockNumber);
  else if (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag)) height = Number(BigInt(tag));
  else throw new EthRpcError(-32602, `invalid argument 2: hex string without 0x prefix or invalid block tag ${JSON.stringify(tag)}`);
  if (height === 0) height = 1;
  if (height > latest || b.env.blockStore.loadBlockMeta(height) === undefined) throw new EthRpcError(-32000, 'header not found');
  if (height <= 2) throw new EthRpcError(-32000, 'proof queries at height <= 2 are not supported');
  return height;
}

/** The value and hex proof ops of `key` in store `name` at `height` (Ethermint's GetHexProofs). */
async function storeProof(b: EthBackend, name: string, key: Uint8Array, height: number): Promise<{ value: Uint8Array; proof: string[] }> {
  const response = await b.env.app.query({ path: `/store/${name}/key`, data: key, height, prove: true });
  if (response.code !== 0) throw new EthRpcError(-32000, response.log);
  const ops = response.proofOps?.ops;
  const proof = ops === undefined ? [''] : ops.map((op) => (op.data.length > 0 ? bytesToHex(op.data) : ''));
  return { value: response.value, proof };
}

export async function getProof(b: EthBackend, params: unknown[]): Promise<Record<string, unknown>> {
  const who = params[0];
  if (typeof who !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(who)) {
    throw new EthRpcError(-32602, `invalid argument 0: hex string has length ${typeof who === 'string' ? who.length - 2 : 0}, want 40 for common.Address`);
  }
  const keys = params[1] ?? [];
  if (!Array.isArray(keys)) throw new EthRpcError(-32602, `invalid argument 1: json: cannot unmarshal ${typeof keys === 'object' ? 'object' : typeof keys} into Go value of type []string`);
  for (const key of keys) if (typeof key !== 'string') throw new EthRpcError(-32602, `invalid argument 1: json: cannot unmarshal ${typeof key} into Go value of type string`);
  const height = proofHeight(b, params[2]);
  const addressBytes = new Uint8Array(Buffer.from(who.slice(2), 'hex'));

  const storageProof: Record<string, unknown>[] = [];
  for (const key of keys as string[]) {
    const { value, proof } = await storeProof(b, 'evm', Storage.encodeKey([addressBytes, hexToHash(key)]), height);
    storageProof.push({ key, value: hex(value.length === 0 ? 0n : BigInt(bytesToHex(value))), proof });
  }

  const { QueryAccountRequestSchema, QueryAccountResponseSchema } = await import('../../gen/ethermint/evm/v1/query_pb.js');
  const account = await b.query('/ethermint.evm.v1.Query/Account', QueryAccountRequestSchema, { address: who }, QueryAccountResponseSchema, height);
  const { proof: accountProof } = await storeProof(b, 'acc', Accounts.encodeKey(addressBytes), height);
  return {
    address: who.toLowerCase(),
    accountProof,
    balance: hex(BigInt(account.balance)),
    codeHash: bytesToHex(hexToHash(account.codeHash)),
    nonce: hex(account.nonce),
    storageHash: ZERO_HASH,
    storageProof,
  };
}
