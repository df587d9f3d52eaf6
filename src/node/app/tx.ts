/**
 * Transaction decoding (x/auth/tx decoder): TxRaw → TxBody/AuthInfo → messages, signers, signer
 * infos, fee. Any failure is ErrTxDecode (code 2, "tx parse error"); a message type URL the codec
 * does not know is "unable to resolve type URL <url>: tx parse error".
 *
 * Like the SDK, TxRaw and AuthInfo may not carry unknown fields; TxBody may carry only
 * non-critical ones (field numbers ≥ 1024).
 *
 * Signers come from each message's `cosmos.msg.v1.signer` option (nested messages such as
 * MultiSend's inputs name their own signer field), de-duplicated in order, then the fee payer if
 * set and not already a signer (COMPAT §3.2).
 */
import { create, fromBinary, getOption, hasOption, toBinary, type DescMessage, type Message } from '@bufbuild/protobuf';
import { MultiSignatureSchema } from '../../gen/cosmos/crypto/multisig/v1beta1/multisig_pb.js';
import type { Any } from '@bufbuild/protobuf/wkt';
import { signer as signerOption } from '../../gen/cosmos/msg/v1/msg_pb.js';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, TxBodySchema, TxRawSchema, type AuthInfo, type ModeInfo, type TxBody } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { sha256 } from '../../keyring/hash.js';
import { registry } from '../codec/registry.js';
import { decodePubKey, type PubKey } from '../modules/auth/account.js';
import { ACCOUNT_PREFIX, VALIDATOR_OPERATOR_PREFIX, parseBech32 } from '../modules/shared/address.js';
import { coinsFromProto, type Coin } from '../modules/shared/coins.js';
import { SdkErrors, isSdkError } from '../modules/shared/errors.js';
import { bytesEqual } from '../modules/shared/keys.js';
import { fromHex } from '../../util/bytes.js';

/** One message of a tx, unpacked. */
export interface TxMsg {
  readonly typeUrl: string;
  readonly any: Any;
  readonly schema: DescMessage;
  readonly message: Message;
  /** The message's own signers (its `cosmos.msg.v1.signer` fields). */
  readonly signers: readonly Uint8Array[];
}

/**
 * A CompactBitArray (cosmos.crypto.multisig.v1beta1): which members of a multisig signed. Bits
 * are most-significant first within each byte; the size is 8 × bytes, less the unused bits of the
 * last byte (`extra_bits_stored` = size mod 8, 0 = the last byte is full).
 */
export class CompactBits {
  constructor(
    readonly elems: Uint8Array,
    readonly extraBitsStored: number,
  ) {}

  /** Bits as the SDK counts them (CompactBitArray.Count). */
  get size(): number {
    if (this.elems.length === 0) return 0;
    return this.extraBitsStored === 0 ? this.elems.length * 8 : (this.elems.length - 1) * 8 + this.extraBitsStored;
  }

  get(index: number): boolean {
    if (index < 0 || index >= this.size || index >> 3 >= this.elems.length) return false;
    return (this.elems[index >> 3]! & (1 << (7 - (index % 8)))) !== 0;
  }

  /** Number of set bits. */
  count(): number {
    let ones = 0;
    for (let i = 0; i < this.size; i++) if (this.get(i)) ones++;
    return ones;
  }
}

/** How a signer signed: one key in one mode, or a multisig (which members, each one's mode). */
export type SignatureMode =
  | { readonly kind: 'single'; readonly mode: SignMode }
  | { readonly kind: 'multi'; readonly bits: CompactBits; readonly modes: readonly SignatureMode[] };

/** A signature with its mode: SignatureV2's data, decoded from the raw signature bytes. */
export type SignatureData =
  | { readonly kind: 'single'; readonly mode: SignMode; readonly signature: Uint8Array }
  | { readonly kind: 'multi'; readonly bits: CompactBits; readonly signatures: readonly SignatureData[] };

export interface SignerInfoData {
  /** Undefined when the signer info carries no key (the account's stored key is used). */
  readonly pubKey: PubKey | undefined;
  readonly sequence: bigint;
  /** Single sign mode, or undefined for multisig / missing mode info. */
  readonly signMode: SignMode | undefined;
  /** The full mode info (undefined when the signer info has none). */
  readonly mode: SignatureMode | undefined;
}

export interface DecodedTx {
  readonly bytes: Uint8Array;
  /** sha256(bytes). */
  readonly hash: Uint8Array;
  /** Upper-case hex of the hash (cache key, logs). */
  readonly hashHex: string;
  readonly bodyBytes: Uint8Array;
  readonly authInfoBytes: Uint8Array;
  readonly signatures: readonly Uint8Array[];
  readonly body: TxBody;
  readonly authInfo: AuthInfo;
  readonly msgs: readonly TxMsg[];
  /** Distinct message signers in order, then the fee payer if it is another address. */
  readonly signers: readonly Uint8Array[];
  readonly signerInfos: readonly SignerInfoData[];
  readonly fee: readonly Coin[];
  readonly gasLimit: bigint;
  readonly hasFee: boolean;
  readonly payer: Uint8Array | undefined;
  readonly payerText: string;
  readonly granter: string;
  readonly memo: string;
  readonly timeoutHeight: bigint;
  readonly extensionOptions: readonly Any[];
}

const NON_CRITICAL_FIELD_MIN = 1024;

function parseError(message: string): never {
  throw SdkErrors.TxDecode.wrap(message);
}

function decodeOrFail<T>(what: string, decode: () => T): T {
  try {
    return decode();
  } catch (err) {
    if (isSdkError(err)) throw err;
    return parseError(`${what}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function rejectUnknown(message: { $unknown?: { no: number }[] }, what: string, allowNonCritical: boolean): void {
  const unknown = message.$unknown;
  if (unknown === undefined || unknown.length === 0) return;
  for (const field of unknown) {
    if (allowNonCritical && field.no >= NON_CRITICAL_FIELD_MIN) continue;
    parseError(`unknown field ${field.no} in ${what}`);
  }
}

/** Decodes tx bytes; throws SdkError (code 2 for malformed input). */
export function decodeTx(bytes: Uint8Array, precomputedHash?: Uint8Array): DecodedTx {
  if (bytes.length === 0) parseError('tx bytes are empty');
  const raw = decodeOrFail('invalid TxRaw', () => fromBinary(TxRawSchema, bytes));
  rejectUnknown(raw, 'cosmos.tx.v1beta1.TxRaw', false);
  const body = decodeOrFail('invalid TxBody', () => fromBinary(TxBodySchema, raw.bodyBytes));
  rejectUnknown(body, 'cosmos.tx.v1beta1.TxBody', true);
  const authInfo = decodeOrFail('invalid AuthInfo', () => fromBinary(AuthInfoSchema, raw.authInfoBytes));
  rejectUnknown(authInfo, 'cosmos.tx.v1beta1.AuthInfo', false);

  const msgs: TxMsg[] = body.messages.map((any) => {
    const typeName = any.typeUrl.slice(any.typeUrl.lastIndexOf('/') + 1);
    const schema = typeName === '' ? undefined : registry.getMessage(typeName);
    if (schema === undefined) return parseError(`unable to resolve type URL ${any.typeUrl}`);
    const message = decodeOrFail(`invalid ${any.typeUrl}`, () => fromBinary(schema, any.value));
    rejectUnknown(message as { $unknown?: { no: number }[] }, any.typeUrl, false);
    return { typeUrl: any.typeUrl, any, schema, message, signers: messageSigners(schema, message) };
  });
  return decodedTxFromParts(bytes, raw.bodyBytes, raw.authInfoBytes, raw.signatures, body, authInfo, msgs, precomputedHash);
}

/**
 * The rest of `decodeTx` once its parts are decoded: signers, fee, payer, signer infos, hash.
 * Also for a caller that built the tx's bytes itself and holds the very messages decoding them
 * would give (eth_sendRawTransaction's Cosmos wrapper): it hands the result to the app's decoded-tx
 * cache (App.rememberDecodedTx) instead of having the bytes decoded again.
 */
export function decodedTxFromParts(
  bytes: Uint8Array,
  bodyBytes: Uint8Array,
  authInfoBytes: Uint8Array,
  signatures: Uint8Array[],
  body: TxBody,
  authInfo: AuthInfo,
  msgs: TxMsg[],
  precomputedHash?: Uint8Array,
): DecodedTx {
  const fee = authInfo.fee;
  const feeCoins = decodeOrFail('invalid fee', () => coinsFromProto(fee?.amount ?? []));
  const signers: Uint8Array[] = [];
  const addSigner = (address: Uint8Array): void => {
    if (!signers.some((existing) => bytesEqual(existing, address))) signers.push(address);
  };
  for (const msg of msgs) for (const address of msg.signers) addSigner(address);
  let payer: Uint8Array | undefined;
  if (fee !== undefined && fee.payer !== '') {
    const parsed = parseBech32(fee.payer, ACCOUNT_PREFIX);
    if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`Invalid fee payer address (${parsed.error})`);
    payer = parsed.bytes;
    addSigner(payer);
  }

  const signerInfos: SignerInfoData[] = authInfo.signerInfos.map((info) => ({
    pubKey: info.publicKey === undefined || info.publicKey.typeUrl === '' ? undefined : decodePubKeyOrFail(info.publicKey),
    sequence: info.sequence,
    signMode: info.modeInfo?.sum.case === 'single' ? info.modeInfo.sum.value.mode : undefined,
    mode: info.modeInfo === undefined ? undefined : signatureMode(info.modeInfo),
  }));

  const hash = precomputedHash ?? sha256(bytes);
  return {
    bytes,
    hash,
    hashHex: Buffer.from(hash).toString('hex').toUpperCase(),
    bodyBytes,
    authInfoBytes,
    signatures,
    body,
    authInfo,
    msgs,
    signers,
    signerInfos,
    fee: feeCoins,
    gasLimit: fee?.gasLimit ?? 0n,
    hasFee: fee !== undefined,
    payer,
    payerText: fee?.payer ?? '',
    granter: fee?.granter ?? '',
    memo: body.memo,
    timeoutHeight: body.timeoutHeight,
    extensionOptions: body.extensionOptions,
  };
}

function signatureMode(info: ModeInfo): SignatureMode | undefined {
  switch (info.sum.case) {
    case 'single':
      return { kind: 'single', mode: info.sum.value.mode };
    case 'multi': {
      const bitarray = info.sum.value.bitarray;
      const modes: SignatureMode[] = [];
      for (const nested of info.sum.value.modeInfos) {
        const mode = signatureMode(nested);
        if (mode === undefined) return undefined;
        modes.push(mode);
      }
      return { kind: 'multi', bits: new CompactBits(bitarray?.elems ?? new Uint8Array(0), bitarray?.extraBitsStored ?? 0), modes };
    }
    default:
      return undefined;
  }
}

/**
 * Signature data of one signer: its mode info applied to its raw signature bytes (x/auth/tx
 * ModeInfoAndSigToSignatureData). A multisig's bytes are a MultiSignature{signatures}, one per
 * mode info. Throws a plain Error (as the SDK, whose errors here are unregistered) when they do
 * not fit.
 */
export function signatureData(mode: SignatureMode | undefined, signature: Uint8Array): SignatureData {
  // No mode info reads as SIGN_MODE_UNSPECIFIED, which no handler accepts.
  if (mode === undefined) return { kind: 'single', mode: SignMode.UNSPECIFIED, signature };
  if (mode.kind === 'single') return { kind: 'single', mode: mode.mode, signature };
  let multi;
  try {
    multi = fromBinary(MultiSignatureSchema, signature);
  } catch (err) {
    throw new Error(`invalid multisignature: ${err instanceof Error ? err.message : String(err)}`);
  }
  // Unknown fields would let anyone bloat a signed tx (the SDK rejects them for that reason).
  if ((multi.$unknown?.length ?? 0) > 0) throw new Error('rejecting unrecognized fields found in MultiSignature');
  if (multi.signatures.length !== mode.modes.length) {
    throw new Error(`multisignature has ${multi.signatures.length} signatures but its mode info describes ${mode.modes.length}`);
  }
  return { kind: 'multi', bits: mode.bits, signatures: mode.modes.map((nested, i) => signatureData(nested, multi.signatures[i]!)) };
}

/** MultiSignature{signatures} bytes (field 1, repeated bytes), as the SDK marshals it. */
export function encodeMultiSignature(signatures: readonly Uint8Array[]): Uint8Array {
  return toBinary(MultiSignatureSchema, create(MultiSignatureSchema, { signatures: [...signatures] }));
}

function decodePubKeyOrFail(any: Any): PubKey {
  try {
    return decodePubKey(any);
  } catch (err) {
    // An unknown key type inside a signer info is a decode failure, as in the SDK's decoder.
    if (any.typeUrl !== '' && registry.getMessage(any.typeUrl.slice(any.typeUrl.lastIndexOf('/') + 1)) === undefined) {
      return parseError(`unable to resolve type URL ${any.typeUrl}`);
    }
    throw err;
  }
}

const signerFieldsCache = new WeakMap<DescMessage, readonly string[]>();

function signerFields(schema: DescMessage): readonly string[] {
  let fields = signerFieldsCache.get(schema);
  if (fields === undefined) {
    fields = hasOption(schema, signerOption) ? getOption(schema, signerOption) : [];
    signerFieldsCache.set(schema, fields);
  }
  return fields;
}

/**
 * The signers of a message, read from its `cosmos.msg.v1.signer` fields: address strings
 * (account or validator-operator bech32) or nested messages with their own signer option.
 */
export function messageSigners(schema: DescMessage, message: Message): Uint8Array[] {
  const result: Uint8Array[] = [];
  const fields = message as unknown as Record<string, unknown>;
  for (const name of signerFields(schema)) {
    const field = schema.fields.find((f) => f.name === name);
    if (field === undefined) continue;
    const value = fields[field.localName];
    if (field.fieldKind === 'scalar') {
      result.push(signerAddress(value as string, name));
    } else if (field.fieldKind === 'message') {
      if (value !== undefined) result.push(...messageSigners(field.message, value as Message));
    } else if (field.fieldKind === 'list') {
      for (const item of value as unknown[]) {
        if (field.listKind === 'scalar') result.push(signerAddress(item as string, name));
        else if (field.listKind === 'message') result.push(...messageSigners(field.message, item as Message));
      }
    }
  }
  return result;
}

function signerAddress(text: string, field: string): Uint8Array {
  // Ethermint's MsgEthereumTx names its signer as a 0x hex address (the recovered sender).
  // (A bech32 signer never starts with "0x": the regex runs only for those that do.)
  if (text.charCodeAt(0) === 48 && text.charCodeAt(1) === 120 && /^0x[0-9a-fA-F]{40}$/.test(text)) return fromHex(text);
  const prefix = text.startsWith(`${VALIDATOR_OPERATOR_PREFIX}1`) ? VALIDATOR_OPERATOR_PREFIX : ACCOUNT_PREFIX;
  const parsed = parseBech32(text, prefix);
  if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`invalid ${field.replace(/_address$/, '').replace(/_/g, ' ')} address: ${parsed.error}`);
  return parsed.bytes;
}

// ------------------------------------------------------------------------------------- sign bytes

function varintLength(value: number): number {
  let length = 1;
  while (value >= 0x80) {
    value = Math.floor(value / 128);
    length++;
  }
  return length;
}

function writeVarint(out: Uint8Array, offset: number, value: bigint | number): number {
  let v = BigInt(value);
  while (v >= 0x80n) {
    out[offset++] = Number(v & 0x7fn) | 0x80;
    v >>= 7n;
  }
  out[offset++] = Number(v);
  return offset;
}

const utf8 = new TextEncoder();

/**
 * SIGN_MODE_DIRECT sign bytes: proto SignDoc{body_bytes=1, auth_info_bytes=2, chain_id=3,
 * account_number=4} with default (empty/zero) fields omitted, exactly as protobuf encoders emit.
 */
export function signDocBytes(bodyBytes: Uint8Array, authInfoBytes: Uint8Array, chainId: string, accountNumber: bigint): Uint8Array {
  const chain = utf8.encode(chainId);
  let accLength = 0;
  if (accountNumber !== 0n) {
    accLength = 1;
    for (let v = accountNumber; v >= 0x80n; v >>= 7n) accLength++;
  }
  const size =
    (bodyBytes.length > 0 ? 1 + varintLength(bodyBytes.length) + bodyBytes.length : 0) +
    (authInfoBytes.length > 0 ? 1 + varintLength(authInfoBytes.length) + authInfoBytes.length : 0) +
    (chain.length > 0 ? 1 + varintLength(chain.length) + chain.length : 0) +
    (accountNumber !== 0n ? 1 + accLength : 0);
  const out = new Uint8Array(size);
  let offset = 0;
  const field = (tag: number, bytes: Uint8Array): void => {
    if (bytes.length === 0) return;
    out[offset++] = tag;
    offset = writeVarint(out, offset, bytes.length);
    out.set(bytes, offset);
    offset += bytes.length;
  };
  field(0x0a, bodyBytes);
  field(0x12, authInfoBytes);
  field(0x1a, chain);
  if (accountNumber !== 0n) {
    out[offset++] = 0x20;
    offset = writeVarint(out, offset, accountNumber);
  }
  return out;
}

/** Bounded memo of decoded txs by hash (CheckTx → FinalizeBlock reuse). FIFO eviction. */
export class DecodedTxCache {
  private readonly entries = new Map<string, DecodedTx>();
  /**
   * The same entries by the bytes object they were decoded from: the mempool hands the same
   * Uint8Array to the precheck, CheckTx, every recheck and (for its own proposals) FinalizeBlock,
   * so those find the decoding without hashing the bytes again. Holds nothing the entries do not.
   */
  private readonly byObject = new Map<Uint8Array, DecodedTx>();

  constructor(private readonly capacity: number) {}

  /** Decodes (or returns the remembered decoding of) `bytes`. */
  decode(bytes: Uint8Array): DecodedTx {
    const same = this.byObject.get(bytes);
    if (same !== undefined) return same;
    const key = sha256(bytes);
    const keyText = Buffer.from(key.buffer, key.byteOffset, key.byteLength).toString('latin1');
    const hit = this.entries.get(keyText);
    if (hit !== undefined && bytesEqual(hit.bytes, bytes)) return hit;
    const tx = decodeTx(bytes, key);
    if (this.capacity > 0) {
      if (this.entries.size >= this.capacity) {
        const oldest = this.entries.entries().next();
        if (oldest.done !== true) {
          this.entries.delete(oldest.value[0]);
          this.byObject.delete(oldest.value[1].bytes);
        }
      }
      if (hit !== undefined) this.byObject.delete(hit.bytes);
      this.entries.set(keyText, tx);
      this.byObject.set(bytes, tx);
    }
    return tx;
  }

  /**
   * Takes a decoding made elsewhere (decodedTxFromParts) as the decoding of `tx.bytes`: the next
   * `decode` of that bytes object (or of equal bytes) returns it.
   */
  remember(tx: DecodedTx): void {
    if (this.capacity <= 0) return;
    const keyText = Buffer.from(tx.hash.buffer, tx.hash.byteOffset, tx.hash.byteLength).toString('latin1');
    const previous = this.entries.get(keyText);
    if (previous !== undefined) {
      this.entries.delete(keyText);
      this.byObject.delete(previous.bytes);
    } else if (this.entries.size >= this.capacity) {
      const oldest = this.entries.entries().next();
      if (oldest.done !== true) {
        this.entries.delete(oldest.value[0]);
        this.byObject.delete(oldest.value[1].bytes);
      }
    }
    this.entries.set(keyText, tx);
    this.byObject.set(tx.bytes, tx);
  }

  forget(tx: DecodedTx): void {
    const keyText = Buffer.from(tx.hash.buffer, tx.hash.byteOffset, tx.hash.byteLength).toString('latin1');
    const entry = this.entries.get(keyText);
    if (entry !== undefined) {
      this.entries.delete(keyText);
      this.byObject.delete(entry.bytes);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
