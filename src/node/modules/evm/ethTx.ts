/**
 * Ethereum transactions ⇄ MsgEthereumTx (Ethermint's LegacyTx / AccessListTx / DynamicFeeTx
 * carried in `data`), and the @ethereumjs Common for a chain id and fork.
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { AnySchema } from '@bufbuild/protobuf/wkt';
import { Common, Mainnet } from '@ethereumjs/common';
import {
  AccessList2930Tx,
  FeeMarket1559Tx,
  LegacyTx,
  createAccessList2930Tx,
  createFeeMarket1559Tx,
  createLegacyTx,
  createTxFromRLP,
  type AccessList,
} from '@ethereumjs/tx';
import { bigIntToUnpaddedBytes, bytesToBigInt, bytesToHex, hexToBytes, setLengthLeft, bigIntToBytes } from '@ethereumjs/util';
import { RLP } from '@ethereumjs/rlp';
import { secp256k1 } from '../../../keyring/secp256k1.js';
import { ethRecoverKeyField, type VerifyJob } from '../../app/sigverify.js';
import { keccak256 } from '../../../util/hash.js';
import { AccessTupleSchema, type AccessTuple as AccessTupleMsg } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import {
  AccessListTxSchema,
  DynamicFeeTxSchema,
  ExtensionOptionsEthereumTxSchema,
  LegacyTxSchema,
  MsgEthereumTxSchema,
  type MsgEthereumTx,
} from '../../../gen/ethermint/evm/v1/tx_pb.js';
import { SdkErrors } from '../shared/errors.js';
import { ProtoWriter, varintSize } from '../shared/proto.js';
import { CoinSchema } from '../../../gen/cosmos/base/v1beta1/coin_pb.js';
import { AuthInfoSchema, FeeSchema, TxBodySchema, TxRawSchema } from '../../../gen/cosmos/tx/v1beta1/tx_pb.js';

export type EthTx = LegacyTx | AccessList2930Tx | FeeMarket1559Tx;

export const LEGACY_TX_URL = `/${LegacyTxSchema.typeName}`;
export const ACCESS_LIST_TX_URL = `/${AccessListTxSchema.typeName}`;
export const DYNAMIC_FEE_TX_URL = `/${DynamicFeeTxSchema.typeName}`;
export { MSG_ETHEREUM_TX_URL } from './keys.js';
import { MSG_ETHEREUM_TX_URL } from './keys.js';
import { decodedTxFromParts, messageSigners, type DecodedTx } from '../../app/tx.js';

const commons = new Map<string, Common>();

/**
 * A Common whose `isActivatedEIP` looks the EIP up in a Set: the library scans its array of the
 * fork's active EIPs (~40 from Cancun on) on every call, and the interpreter asks several times
 * per opcode and per byte of the jump analysis. The Set is rebuilt whenever the library replaces
 * that array (it builds a new one on every hardfork or EIP change), so answers stay the library's.
 */
class FastCommon extends Common {
  private eipList: readonly number[] | undefined;
  private eipSet: ReadonlySet<number> | undefined;

  override isActivatedEIP(eip: number): boolean {
    const list = (this as unknown as { _activatedEIPsCache: readonly number[] })._activatedEIPsCache;
    if (list !== this.eipList || this.eipSet === undefined) {
      this.eipSet = new Set(list);
      this.eipList = list;
    }
    return this.eipSet.has(eip);
  }
}

/**
 * The Common the transactions built against `common` share. @ethereumjs/tx copies the Common it
 * is given and applies its tx params to the copy for every transaction it constructs (a JSON deep
 * copy of the params and a rebuild of the params cache over every fork: ~0.3 ms, the largest
 * single cost of an Ethereum tx's CheckTx). Transactions never change their Common beyond those
 * same params, so one instance per Common, with them applied once, serves every transaction.
 */
class TxCommon extends FastCommon {
  private readonly applied = new WeakSet<object>();

  override copy(): Common {
    return this;
  }

  override updateParams(params: Parameters<Common['updateParams']>[0]): void {
    if (this.applied.has(params)) return;
    super.updateParams(params);
    this.applied.add(params);
  }
}

const txCommons = new WeakMap<Common, TxCommon>();

function txCommonOf(common: Common): Common {
  if (common instanceof TxCommon) return common;
  const known = txCommons.get(common);
  if (known !== undefined) return known;
  // A TxCommon with the same state (the shallow copy Common.copy makes), its params kept apart.
  const shared = Object.create(TxCommon.prototype) as TxCommon;
  Object.assign(shared, common.copy());
  Object.assign(shared, { applied: new WeakSet<object>(), _params: structuredClone((common as unknown as { _params: object })._params) });
  txCommons.set(common, shared);
  return shared;
}

/** A Common for `chainId` at `hardfork` (cached; Commons are not mutated after creation). */
export function commonFor(chainId: bigint, hardfork: string, eips: readonly number[] = []): Common {
  const key = `${chainId}:${hardfork}:${eips.join(',')}`;
  let common = commons.get(key);
  if (common === undefined) {
    // The app's Keccak-256 (WebAssembly once loaded, see util/hash.ts) for tx hashes, the
    // KECCAK256 opcode and CREATE2 addresses: the same digests as the library's own.
    // createCustomCommon's construction (the chain Mainnet's with this id and name), as a FastCommon.
    common = new FastCommon({ chain: { ...Mainnet, chainId: Number(chainId), name: `tokend-${chainId}` }, hardfork, eips: [...eips], customCrypto: { keccak256 } });
    commons.set(key, common);
  }
  return common;
}

function big(text: string, what: string): bigint {
  if (text === '') return 0n;
  if (!/^[0-9]+$/.test(text)) throw SdkErrors.InvalidRequest.wrap(`invalid ${what} "${text}"`);
  return BigInt(text);
}

function accessList(tuples: readonly AccessTupleMsg[]): AccessList {
  return tuples.map((t) => ({ address: t.address as `0x${string}`, storageKeys: t.storageKeys as `0x${string}`[] }));
}

function toTuples(list: readonly { address: string; storageKeys: string[] }[] | undefined): AccessTupleMsg[] {
  return (list ?? []).map((t) => create(AccessTupleSchema, { address: t.address, storageKeys: t.storageKeys }));
}

/** A typed tx's access list as messages; the JSON rendering of the whole tx only when there is one. */
function accessTuples(tx: AccessList2930Tx | FeeMarket1559Tx): AccessTupleMsg[] {
  return tx.accessList.length === 0 ? [] : toTuples(tx.toJSON().accessList);
}

/** v, r, s; an empty v is 0 (typed txs' y-parity 0 encodes as no bytes) once r and s are present. */
function signature(t: { v: Uint8Array; r: Uint8Array; s: Uint8Array }): { v?: bigint; r?: bigint; s?: bigint } {
  if (t.r.length === 0 && t.s.length === 0 && t.v.length === 0) return {};
  return { v: bytesToBigInt(t.v), r: bytesToBigInt(t.r), s: bytesToBigInt(t.s) };
}

function recipient(to: string): `0x${string}` | undefined {
  if (to === '') return undefined;
  if (!/^0x[0-9a-fA-F]{40}$/.test(to)) throw SdkErrors.InvalidAddress.wrap(`invalid to address ${to}`);
  return to as `0x${string}`;
}

/**
 * The @ethereumjs transaction a message carries, checked against `common` (a typed tx whose
 * chain id differs, or a legacy tx signed for another chain, throws).
 */
export function txFromMsg(msg: MsgEthereumTx, common: Common): EthTx {
  const data = msg.data;
  if (data === undefined) throw SdkErrors.InvalidRequest.wrap('MsgEthereumTx has no transaction data');
  const opts = { common: txCommonOf(common), freeze: true };
  try {
    switch (data.typeUrl) {
      case LEGACY_TX_URL: {
        const t = fromBinary(LegacyTxSchema, data.value);
        return createLegacyTx(
          { nonce: t.nonce, gasPrice: big(t.gasPrice, 'gas price'), gasLimit: t.gas, to: recipient(t.to), value: big(t.value, 'value'), data: t.data, ...signature(t) },
          opts,
        );
      }
      case ACCESS_LIST_TX_URL: {
        const t = fromBinary(AccessListTxSchema, data.value);
        return createAccessList2930Tx(
          {
            chainId: big(t.chainId, 'chain id'),
            nonce: t.nonce,
            gasPrice: big(t.gasPrice, 'gas price'),
            gasLimit: t.gas,
            to: recipient(t.to),
            value: big(t.value, 'value'),
            data: t.data,
            accessList: accessList(t.accesses),
            ...signature(t),
          },
          opts,
        );
      }
      case DYNAMIC_FEE_TX_URL: {
        const t = fromBinary(DynamicFeeTxSchema, data.value);
        return createFeeMarket1559Tx(
          {
            chainId: big(t.chainId, 'chain id'),
            nonce: t.nonce,
            maxPriorityFeePerGas: big(t.gasTipCap, 'gas tip cap'),
            maxFeePerGas: big(t.gasFeeCap, 'gas fee cap'),
            gasLimit: t.gas,
            to: recipient(t.to),
            value: big(t.value, 'value'),
            data: t.data,
            accessList: accessList(t.accesses),
            ...signature(t),
          },
          opts,
        );
      }
    }
  } catch (err) {
    if (err instanceof Error && /chain ?id/i.test(err.message)) {
      throw SdkErrors.InvalidSigner.wrap(`couldn't retrieve sender address from the ethereum transaction: invalid chain id for signer`);
    }
    throw err instanceof Error && 'codespace' in err ? err : SdkErrors.TxDecode.wrap(`invalid ethereum transaction: ${err instanceof Error ? err.message : String(err)}`);
  }
  throw SdkErrors.TxDecode.wrap(`unknown ethereum transaction type ${data.typeUrl}`);
}

function u(value: bigint): Uint8Array {
  return bigIntToUnpaddedBytes(value);
}

/** The MsgEthereumTx for a signed transaction (hash and sender filled in). */
export function msgFromTx(tx: EthTx, from: string): MsgEthereumTx {
  const to = tx.to?.toString() ?? '';
  let data;
  if (tx instanceof FeeMarket1559Tx) {
    data = create(AnySchema, {
      typeUrl: DYNAMIC_FEE_TX_URL,
      value: toBinary(
        DynamicFeeTxSchema,
        create(DynamicFeeTxSchema, {
          chainId: tx.chainId.toString(),
          nonce: tx.nonce,
          gasTipCap: tx.maxPriorityFeePerGas.toString(),
          gasFeeCap: tx.maxFeePerGas.toString(),
          gas: tx.gasLimit,
          to,
          value: tx.value.toString(),
          data: tx.data,
          accesses: accessTuples(tx),
          v: u(tx.v ?? 0n),
          r: u(tx.r ?? 0n),
          s: u(tx.s ?? 0n),
        }),
      ),
    });
  } else if (tx instanceof AccessList2930Tx) {
    data = create(AnySchema, {
      typeUrl: ACCESS_LIST_TX_URL,
      value: toBinary(
        AccessListTxSchema,
        create(AccessListTxSchema, {
          chainId: tx.chainId.toString(),
          nonce: tx.nonce,
          gasPrice: tx.gasPrice.toString(),
          gas: tx.gasLimit,
          to,
          value: tx.value.toString(),
          data: tx.data,
          accesses: accessTuples(tx),
          v: u(tx.v ?? 0n),
          r: u(tx.r ?? 0n),
          s: u(tx.s ?? 0n),
        }),
      ),
    });
  } else {
    data = create(AnySchema, {
      typeUrl: LEGACY_TX_URL,
      value: toBinary(
        LegacyTxSchema,
        create(LegacyTxSchema, { nonce: tx.nonce, gasPrice: tx.gasPrice.toString(), gas: tx.gasLimit, to, value: tx.value.toString(), data: tx.data, v: u(tx.v ?? 0n), r: u(tx.r ?? 0n), s: u(tx.s ?? 0n) }),
      ),
    });
  }
  return create(MsgEthereumTxSchema, { data, hash: bytesToHex(tx.hash()), from });
}

/** Decodes a raw signed transaction (eth_sendRawTransaction). */
export function txFromRaw(raw: Uint8Array, common: Common): EthTx {
  let tx;
  try {
    tx = createTxFromRLP(raw, { common: txCommonOf(common), freeze: true });
  } catch (err) {
    if (err instanceof Error && /chain ?id/i.test(err.message)) {
      throw SdkErrors.InvalidSigner.wrap(`couldn't retrieve sender address from the ethereum transaction: invalid chain id for signer`);
    }
    throw SdkErrors.TxDecode.wrap(`invalid ethereum transaction: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  }
  if (!(tx instanceof LegacyTx || tx instanceof AccessList2930Tx || tx instanceof FeeMarket1559Tx)) throw new Error(`transaction type ${tx.type} not supported`);
  return tx;
}

/** A legacy tx's EIP-155 protection: v ∉ {27, 28}. */
export function isProtected(tx: EthTx): boolean {
  if (!(tx instanceof LegacyTx)) return true;
  const v = tx.v;
  return v !== undefined && v !== 27n && v !== 28n;
}

/** The gas price the sender pays per gas: legacy/2930 gas price; 1559 min(tip + base fee, fee cap). */
export function effectiveGasPrice(tx: EthTx, baseFee: bigint | undefined): bigint {
  if (tx instanceof FeeMarket1559Tx) {
    if (baseFee === undefined) return tx.maxFeePerGas;
    const price = tx.maxPriorityFeePerGas + baseFee;
    return price < tx.maxFeePerGas ? price : tx.maxFeePerGas;
  }
  return tx.gasPrice;
}

/** The most the sender may pay per gas (fee cap or gas price). */
export function gasFeeCap(tx: EthTx): bigint {
  return tx instanceof FeeMarket1559Tx ? tx.maxFeePerGas : tx.gasPrice;
}

export { hexToBytes };

/**
 * The Cosmos tx that carries a signed Ethereum transaction (Ethermint's BuildTx): one
 * MsgEthereumTx, the ExtensionOptionsEthereumTx option, fee = gas × fee cap in the EVM denom,
 * no Cosmos signatures.
 */
export function cosmosTxBytes(tx: EthTx, sender: string, denom: string, handOff?: Common): Uint8Array {
  if (tx.nonce >= UINT64_LIMIT || tx.gasLimit >= UINT64_LIMIT) return cosmosTxBytesReflective(tx, sender, denom, handOff);
  return writeCosmosTx(tx, sender, denom, handOff).bytes;
}

/**
 * `cosmosTxBytes` with the decoding of its bytes (what `decodeTx` gives for them, built from the
 * parts written instead of read back: tested equal), for the app's decoded-tx cache
 * (App.rememberDecodedTx). `decoded` is undefined on the reflective path (nonce or gas ≥ 2^64).
 */
export function cosmosTxWithDecoded(tx: EthTx, sender: string, denom: string, handOff?: Common): { bytes: Uint8Array; decoded: DecodedTx | undefined } {
  if (tx.nonce >= UINT64_LIMIT || tx.gasLimit >= UINT64_LIMIT) return { bytes: cosmosTxBytesReflective(tx, sender, denom, handOff), decoded: undefined };
  const written = writeCosmosTx(tx, sender, denom, handOff);
  const { bytes, at } = written;
  const bodyBytes = bytes.subarray(at.body, at.body + at.bodySize);
  const authInfoBytes = bytes.subarray(at.authInfo, at.authInfo + at.authInfoSize);
  const message = create(MsgEthereumTxSchema, {
    data: create(AnySchema, { typeUrl: written.typeUrl, value: bytes.subarray(at.data, at.data + at.dataSize) }),
    hash: written.hash,
    from: sender,
  });
  const any = create(AnySchema, { typeUrl: MSG_ETHEREUM_TX_URL, value: bytes.subarray(at.msg, at.msg + at.msgSize) });
  const body = create(TxBodySchema, { messages: [any], extensionOptions: [create(AnySchema, { typeUrl: EXTENSION_OPTION_URL })] });
  const authInfo = create(AuthInfoSchema, { fee: create(FeeSchema, { amount: [create(CoinSchema, { denom, amount: written.amount })], gasLimit: tx.gasLimit }) });
  try {
    const msgs = [{ typeUrl: MSG_ETHEREUM_TX_URL, any, schema: MsgEthereumTxSchema, message, signers: messageSigners(MsgEthereumTxSchema, message) }];
    return { bytes, decoded: decodedTxFromParts(bytes, bodyBytes, authInfoBytes, [], body, authInfo, msgs) };
  } catch {
    return { bytes, decoded: undefined }; // (a sender that is no address) the app decodes the bytes and answers its error
  }
}

/** Where `writeCosmosTx` put the parts a decoder would read back (offsets into its bytes). */
interface CosmosTxLayout {
  body: number;
  bodySize: number;
  msg: number;
  msgSize: number;
  data: number;
  dataSize: number;
  authInfo: number;
  authInfoSize: number;
}

function writeCosmosTx(tx: EthTx, sender: string, denom: string, handOff?: Common): { bytes: Uint8Array; at: CosmosTxLayout; typeUrl: string; hash: string; amount: string } {
  const data = txDataFields(tx);
  const dataSize = fieldsSize(data.fields);
  const hash = bytesToHex(tx.hash());
  // Sizes inside out, then one exactly sized buffer written outside in.
  // MsgEthereumTx: data = 1 (Any: type_url = 1, value = 2), size = 2 (0: omitted), hash = 3, from = 4.
  const anySize = delimitedFieldSize(1, data.typeUrl.length) + (dataSize === 0 ? 0 : delimitedFieldSize(2, dataSize));
  const msgSize = delimitedFieldSize(1, anySize) + stringFieldSize(3, hash) + stringFieldSize(4, sender);
  // TxBody: messages = 1 (Any), memo and timeout_height (empty: omitted), extension_options = 1023.
  const messageAnySize = delimitedFieldSize(1, MSG_ETHEREUM_TX_URL.length) + delimitedFieldSize(2, msgSize);
  const bodySize = delimitedFieldSize(1, messageAnySize) + delimitedFieldSize(1023, EXTENSION_OPTION_ANY_SIZE);
  // AuthInfo: fee = 2 (Fee: amount = 1 (Coin: denom = 1, amount = 2), gas_limit = 2).
  const amount = (tx.gasLimit * gasFeeCap(tx)).toString();
  const coinSize = stringFieldSize(1, denom) + stringFieldSize(2, amount);
  const feeSize = delimitedFieldSize(1, coinSize) + (tx.gasLimit === 0n ? 0 : 1 + bigVarintSize(tx.gasLimit));
  const authInfoSize = delimitedFieldSize(2, feeSize);
  // TxRaw: body_bytes = 1, auth_info_bytes = 2, no signatures.
  const w = new ProtoWriter(delimitedFieldSize(1, bodySize) + delimitedFieldSize(2, authInfoSize));
  w.header(1, bodySize);
  const bodyAt = w.length;
  w.header(1, messageAnySize).stringField(1, MSG_ETHEREUM_TX_URL).header(2, msgSize);
  const msgAt = w.length;
  w.header(1, anySize).stringField(1, data.typeUrl);
  let valueAt = -1;
  if (dataSize > 0) {
    w.header(2, dataSize);
    valueAt = w.length;
    writeFields(w, data.fields);
  }
  w.stringField(3, hash).stringField(4, sender);
  w.header(1023, EXTENSION_OPTION_ANY_SIZE).stringField(1, EXTENSION_OPTION_URL);
  w.header(2, authInfoSize);
  const authInfoAt = w.length;
  w.header(2, feeSize).header(1, coinSize).stringField(1, denom).stringField(2, amount).uintField(2, tx.gasLimit);
  const bytes = w.finish();
  if (handOff !== undefined) handOffTx(hash, data.typeUrl, valueAt < 0 ? new Uint8Array(0) : bytes.subarray(valueAt, valueAt + dataSize), handOff, tx);
  const at: CosmosTxLayout = {
    body: bodyAt,
    bodySize,
    msg: msgAt,
    msgSize,
    data: valueAt < 0 ? 0 : valueAt,
    dataSize,
    authInfo: authInfoAt,
    authInfoSize,
  };
  return { bytes, at, typeUrl: data.typeUrl, hash, amount };
}

const UINT64_LIMIT = 1n << 64n;
const EXTENSION_OPTION_URL = `/${ExtensionOptionsEthereumTxSchema.typeName}`;
/** The extension option's Any: its type URL only (the empty value is omitted). */
const EXTENSION_OPTION_ANY_SIZE = delimitedFieldSize(1, EXTENSION_OPTION_URL.length);

/** A field of an Ethermint tx message: string, bytes or uint64 (proto3: omitted when empty or 0), or a repeated message field's pre-encoded elements. */
type TxDataField = readonly [field: number, value: string | Uint8Array | bigint | Uint8Array[]];

/** A field's tag: its number and wire type as one varint. */
function tagSize(field: number): number {
  return varintSize(field * 8);
}

/** Tag, length and payload of a length-delimited field (ASCII payloads: `length` is its byte length). */
function delimitedFieldSize(field: number, length: number): number {
  return tagSize(field) + varintSize(length) + length;
}

function stringFieldSize(field: number, text: string): number {
  return text === '' ? 0 : delimitedFieldSize(field, Buffer.byteLength(text, 'utf8'));
}

function bigVarintSize(value: bigint): number {
  let size = 1;
  while (value >= 0x80n) {
    value >>= 7n;
    size++;
  }
  return size;
}

function fieldsSize(fields: readonly TxDataField[]): number {
  let size = 0;
  for (const [field, value] of fields) {
    if (Array.isArray(value)) for (const element of value) size += delimitedFieldSize(field, element.length);
    else if (typeof value === 'string') size += stringFieldSize(field, value);
    else if (typeof value === 'bigint') size += value === 0n ? 0 : tagSize(field) + bigVarintSize(value);
    else size += value.length === 0 ? 0 : delimitedFieldSize(field, value.length);
  }
  return size;
}

function writeFields(w: ProtoWriter, fields: readonly TxDataField[]): void {
  for (const [field, value] of fields) {
    if (Array.isArray(value)) for (const element of value) w.messageField(field, element);
    else if (typeof value === 'string') w.stringField(field, value);
    else if (typeof value === 'bigint') w.uintField(field, value);
    else w.bytesField(field, value);
  }
}

/** The repeated AccessTuple field's elements (address = 1, storage_keys = 2), from the tuples msgFromTx builds. */
function accessElements(tx: AccessList2930Tx | FeeMarket1559Tx): Uint8Array[] {
  return accessTuples(tx).map((tuple) => {
    const t = new ProtoWriter(64 + 70 * tuple.storageKeys.length).stringField(1, tuple.address);
    // Repeated strings are written element by element, empty ones too.
    for (const key of tuple.storageKeys) t.stringElement(2, key);
    return t.finish();
  });
}

/**
 * The fields of the tx's Ethermint message (LegacyTx, AccessListTx or DynamicFeeTx) in number
 * order, for encoding by hand byte for byte as protobuf-es encodes msgFromTx's message
 * (test/node/modules/evm/intake.test.ts).
 */
function txDataFields(tx: EthTx): { typeUrl: string; fields: TxDataField[] } {
  const to = tx.to?.toString() ?? '';
  const v = u(tx.v ?? 0n);
  const r = u(tx.r ?? 0n);
  const s = u(tx.s ?? 0n);
  if (tx instanceof FeeMarket1559Tx) {
    const fields: TxDataField[] = [
      [1, tx.chainId.toString()],
      [2, tx.nonce],
      [3, tx.maxPriorityFeePerGas.toString()],
      [4, tx.maxFeePerGas.toString()],
      [5, tx.gasLimit],
      [6, to],
      [7, tx.value.toString()],
      [8, tx.data],
      [9, accessElements(tx)],
      [10, v],
      [11, r],
      [12, s],
    ];
    return { typeUrl: DYNAMIC_FEE_TX_URL, fields };
  }
  if (tx instanceof AccessList2930Tx) {
    const fields: TxDataField[] = [
      [1, tx.chainId.toString()],
      [2, tx.nonce],
      [3, tx.gasPrice.toString()],
      [4, tx.gasLimit],
      [5, to],
      [6, tx.value.toString()],
      [7, tx.data],
      [8, accessElements(tx)],
      [9, v],
      [10, r],
      [11, s],
    ];
    return { typeUrl: ACCESS_LIST_TX_URL, fields };
  }
  const fields: TxDataField[] = [
    [1, tx.nonce],
    [2, tx.gasPrice.toString()],
    [3, tx.gasLimit],
    [4, to],
    [5, tx.value.toString()],
    [6, tx.data],
    [7, v],
    [8, r],
    [9, s],
  ];
  return { typeUrl: LEGACY_TX_URL, fields };
}

/** cosmosTxBytes through protobuf-es (the reference the hand encoding is tested against; nonces or gas of 2^64 and up). */
export function cosmosTxBytesReflective(tx: EthTx, sender: string, denom: string, handOff?: Common): Uint8Array {
  const msg = msgFromTx(tx, sender);
  if (handOff !== undefined && msg.data !== undefined) handOffTx(msg.hash, msg.data.typeUrl, msg.data.value, handOff, tx);
  const body = create(TxBodySchema, {
    messages: [create(AnySchema, { typeUrl: MSG_ETHEREUM_TX_URL, value: toBinary(MsgEthereumTxSchema, msg) })],
    extensionOptions: [create(AnySchema, { typeUrl: `/${ExtensionOptionsEthereumTxSchema.typeName}`, value: new Uint8Array(0) })],
  });
  const authInfo = create(AuthInfoSchema, {
    fee: create(FeeSchema, { amount: [create(CoinSchema, { denom, amount: (tx.gasLimit * gasFeeCap(tx)).toString() })], gasLimit: tx.gasLimit }),
  });
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: toBinary(TxBodySchema, body), authInfoBytes: toBinary(AuthInfoSchema, authInfo), signatures: [] }));
}

const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

/** The recovery inputs of a signed tx: 64-byte r‖s and recovery id, after EIP-2's and v's checks. Throws "Invalid Signature…". */
function recoveryInputs(tx: EthTx): { signature: Uint8Array; recovery: number } {
  const { v, r, s } = tx;
  if (v === undefined || r === undefined || s === undefined) throw new Error('Invalid Signature: the transaction is not signed');
  if (r === 0n || s === 0n || s > HALF_N) throw new Error('Invalid Signature: s-values greater than secp256k1n/2 are considered invalid');
  let recovery = v;
  if (tx instanceof LegacyTx) recovery = v === 27n || v === 28n ? v - 27n : v - (tx.common.chainId() * 2n + 35n);
  if (recovery !== 0n && recovery !== 1n) throw new Error('Invalid Signature: invalid v value');
  const signature = new Uint8Array(64);
  signature.set(setLengthLeft(bigIntToBytes(r), 32), 0);
  signature.set(setLengthLeft(bigIntToBytes(s), 32), 32);
  return { signature, recovery: Number(recovery) };
}

/**
 * The sender of a signed tx (20 bytes), recovered with libsecp256k1 when its binding loads (the
 * library's own recovery is pure JS, ~100× slower). EIP-2: s ≤ n/2. Throws "Invalid Signature…".
 */
export function recoverSender(tx: EthTx): Uint8Array {
  const { signature, recovery } = recoveryInputs(tx);
  let publicKey: Uint8Array;
  try {
    publicKey = secp256k1().recover(tx.getHashedMessageToSign(), signature, recovery, false);
  } catch {
    throw new Error('Invalid Signature: no public key recovers from it');
  }
  return keccak256(publicKey.subarray(1)).subarray(12);
}

/**
 * A worker job (App.precheckTx) that passes when `tx`'s signature recovers to `claimed`: the
 * unhashed signing payload (the worker hashes it with keccak256), r‖s, and the recovery id with
 * the claimed address. Throws when recoverSender would throw before recovering.
 */
export function senderRecoveryJob(tx: EthTx, claimed: Uint8Array): VerifyJob {
  const { signature, recovery } = recoveryInputs(tx);
  const payload = tx.getMessageToSign();
  const message = payload instanceof Uint8Array ? payload : RLP.encode(payload);
  return { algo: 'eth_recover', message, signature, pubKey: ethRecoverKeyField(recovery, claimed) };
}

const decodedMsgs = new WeakMap<object, { common: Common; tx: EthTx; sender?: Uint8Array | Error }>();

/**
 * Txs eth_sendRawTransaction decoded from their RLP, by the tx hash it wrote into the message,
 * with the `data` it encoded them to and the Common it decoded them with: the first
 * cachedTxFromMsg of a message with that same `data` under that same Common (the precheck, or
 * CheckTx) takes the decoded tx instead of building a second one from the message — txFromMsg
 * of those bytes gives a tx with the same fields (msgFromTx ∘ txFromMsg keeps every signed
 * field; test/node/modules/evm/intake.test.ts), and the RPC's object already carries its hash.
 * An entry is used once; bounded, the oldest go first.
 */
const handedOff = new Map<string, { typeUrl: string; value: Uint8Array; common: Common; tx: EthTx }>();
const HANDED_OFF_LIMIT = 5_000;
let handOffEnabled = true;

/** Turns the eth_sendRawTransaction hand-off on or off (tests comparing both paths); off also forgets it. */
export function setTxHandOff(enabled: boolean): void {
  handOffEnabled = enabled;
  if (!enabled) handedOff.clear();
}

/** Hand-offs taken by cachedTxFromMsg (tests, benchmarks). */
export const txHandOffs = { taken: 0 };

function handOffTx(hash: string, typeUrl: string, value: Uint8Array, common: Common, tx: EthTx): void {
  if (!handOffEnabled) return;
  handedOff.delete(hash);
  handedOff.set(hash, { typeUrl, value, common, tx });
  if (handedOff.size > HANDED_OFF_LIMIT) handedOff.delete(handedOff.keys().next().value!);
}

function takeHandedOff(msg: MsgEthereumTx, common: Common): EthTx | undefined {
  if (handedOff.size === 0) return undefined;
  const entry = handedOff.get(msg.hash);
  const data = msg.data;
  if (entry === undefined || data === undefined || entry.common !== common || entry.typeUrl !== data.typeUrl) return undefined;
  if (entry.value.length !== data.value.length || Buffer.compare(entry.value, data.value) !== 0) return undefined;
  handedOff.delete(msg.hash);
  txHandOffs.taken++;
  return entry.tx;
}

/** txFromMsg, memoised per message object (CheckTx and FinalizeBlock share decoded txs). */
export function cachedTxFromMsg(msg: MsgEthereumTx, common: Common): EthTx {
  const entry = decodedMsgs.get(msg);
  if (entry !== undefined && entry.common === common) return entry.tx;
  const tx = takeHandedOff(msg, common) ?? txFromMsg(msg, common);
  decodedMsgs.set(msg, { common, tx });
  return tx;
}

/**
 * Records `sender` as the recovered sender of `msg`'s tx `tx` (a worker found that the
 * signature recovers to it, see senderRecoveryJob): cachedSender then answers it without
 * recovering. Nothing is recorded when `msg` is now memoised with another tx object.
 */
export function rememberSender(msg: MsgEthereumTx, tx: EthTx, sender: Uint8Array): void {
  const entry = decodedMsgs.get(msg);
  if (entry !== undefined && entry.tx === tx && entry.sender === undefined) entry.sender = sender;
}

/**
 * Senders already recovered elsewhere in this process, by signed-tx hash (which commits to every
 * signed field, v, r and s included, so the sender is a function of it): eth_sendRawTransaction
 * recovers the sender to fill in `from`, and CheckTx and FinalizeBlock of the Cosmos tx it builds
 * then find it here instead of recovering again. Bounded; the oldest entries go first.
 */
const knownSenders = new Map<string, Uint8Array>();
const KNOWN_SENDERS_LIMIT = 20_000;

/** The sender of `tx`, from knownSenders or recovered (and remembered there); throws as recoverSender. */
export function recoverAndRememberSender(tx: EthTx): Uint8Array {
  if (!tx.isSigned()) return recoverSender(tx); // throws its "not signed" text
  const key = bytesToHex(tx.hash());
  const known = knownSenders.get(key);
  if (known !== undefined) return known;
  const sender = recoverSender(tx);
  knownSenders.set(key, sender);
  if (knownSenders.size > KNOWN_SENDERS_LIMIT) knownSenders.delete(knownSenders.keys().next().value!);
  return sender;
}

/**
 * Records `sender` as `tx`'s sender in knownSenders, once a signature worker recovered it
 * (App.recoverEthSender; `tx` passed recoveryInputs' checks when its job was made).
 */
export function rememberKnownSender(tx: EthTx, sender: Uint8Array): void {
  const key = bytesToHex(tx.hash());
  knownSenders.set(key, sender);
  if (knownSenders.size > KNOWN_SENDERS_LIMIT) knownSenders.delete(knownSenders.keys().next().value!);
}

/**
 * A worker job that recovers `tx`'s sender (App.recoverEthSender), or undefined when the
 * signature fails recoverSender's checks (the caller recovers inline for its error text).
 */
export function senderRecoveryJobFor(tx: EthTx): VerifyJob | undefined {
  if (!tx.isSigned()) return undefined;
  try {
    return senderRecoveryJob(tx, new Uint8Array(20));
  } catch {
    return undefined;
  }
}

/** A sender knownSenders holds for `tx` (no recovery). */
export function knownSender(tx: EthTx): Uint8Array | undefined {
  return knownSenders.size === 0 || !tx.isSigned() ? undefined : knownSenders.get(bytesToHex(tx.hash()));
}

/** Senders recovered on the calling thread by cachedSender (tests, benchmarks). */
export const inlineSenderRecoveries = { count: 0 };

/** recoverSender, memoised per message object. */
export function cachedSender(msg: MsgEthereumTx, tx: EthTx): Uint8Array {
  const entry = decodedMsgs.get(msg);
  if (entry !== undefined && entry.tx === tx && entry.sender !== undefined) {
    if (entry.sender instanceof Error) throw entry.sender;
    return entry.sender;
  }
  let sender: Uint8Array | Error | undefined = knownSender(tx);
  if (sender !== undefined) {
    // Known senders passed recoverSender's checks when they were recovered.
    if (entry !== undefined && entry.tx === tx) entry.sender = sender;
    return sender;
  }
  inlineSenderRecoveries.count++;
  try {
    sender = recoverSender(tx);
  } catch (err) {
    sender = err as Error;
  }
  if (entry !== undefined && entry.tx === tx) entry.sender = sender;
  if (sender instanceof Error) throw sender;
  return sender;
}
