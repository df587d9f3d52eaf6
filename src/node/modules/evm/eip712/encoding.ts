/**
 * Ethermint v0.22's second way to accept an Ethereum wallet's EIP-712 signature: an ordinary
 * Cosmos tx (no extension option) whose signer has an eth_secp256k1 key and whose signature does
 * not verify over the sign bytes themselves is checked as an EIP-712 signature over typed data
 * made from its amino JSON sign doc (Ethermint's ethsecp256k1 PubKey.VerifySignature →
 * verifySignatureAsEIP712): first with the current encoding below, then with the legacy one
 * (legacy.ts, fee payer = the first message's signer). SIGN_MODE_LEGACY_AMINO_JSON signs the
 * amino sign doc itself; SIGN_MODE_DIRECT's SignDoc is turned into the same document with
 * fee = amount and gas (no timeout height or extension options allowed). Requirements: a chain
 * id of Ethermint's form name_N-V (N is the domain's chain id), at least one message, each with
 * exactly one signer, all the same.
 *
 * The current encoding (WrapTxToTypedData): the sign doc's `msgs` array becomes fields `msg0`,
 * `msg1`, … of the Tx; `Tx` {account_number, chain_id string; fee Fee; memo, sequence string;
 * msgN TypeX…}, `Fee` {amount Coin[], gas string}; each message's types are derived from its JSON:
 * keys in descending order, strings → `string`, numbers → `int64`, booleans → `bool`, objects →
 * their own type named from the path (`_.value.amount` → `TypeValueAmount`) plus an index
 * (`TypeValueAmount0`; an identical definition is reused, a different one takes the next index),
 * the message's root type `Type<last part of its amino name>N` (`TypeMsgSend0`), an array takes
 * its first element's type plus `[]` and an empty array is `string[]`; null is left out.
 */
import { SignMode } from '../../../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { secp256k1 } from '../../../../keyring/secp256k1.js';
import type { SignatureFallback } from '../../../app/ante/types.js';
import type { PubKey } from '../../auth/account.js';
import { accString } from '../../shared/address.js';
import { bytesEqual } from '../../shared/keys.js';
import { EIP712_DOMAIN_NAME, EIP712_DOMAIN_VERSION, EIP712_SALT, EIP712_VERIFYING_CONTRACT, baseTypes, legacyTypedData, sanitizeTypedef } from './legacy.js';
import { TypedDataError, typedDataHash, type TypedData, type TypedField, type TypedValue, type Types } from './typedData.js';

const ETHERMINT_CHAIN_ID = /^([a-z]{1,})_([1-9][0-9]*)-([1-9][0-9]*)$/;
const MAX_DUPLICATE_TYPE_DEFS = 1000;

/** The EIP-155 chain id of an Ethermint chain id (`name_N-V`), or undefined (Ethermint's ParseChainID). */
export function parseEthermintChainId(chainId: string): bigint | undefined {
  if (chainId.length > 48) return undefined;
  const match = ETHERMINT_CHAIN_ID.exec(chainId);
  return match === null ? undefined : BigInt(match[2]!);
}

type JsonObject = { [key: string]: TypedValue };

function isObject(value: TypedValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function ethTypeForJson(value: TypedValue): string {
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return 'int64';
  if (typeof value === 'string') return 'string';
  return '';
}

function typesEqual(a: readonly TypedField[], b: readonly TypedField[]): boolean {
  return a.length === b.length && a.every((f, i) => f.name === b[i]!.name && f.type === b[i]!.type);
}

function addTypesToRoot(types: Types, typeDef: string, fields: TypedField[]): string {
  for (let index = 0; index < MAX_DUPLICATE_TYPE_DEFS; index++) {
    const name = `${typeDef}${index}`;
    const existing = types[name];
    if (existing === undefined) {
      types[name] = fields;
      return name;
    }
    if (typesEqual(fields, existing)) return name;
  }
  throw new TypedDataError('exceeded maximum number of duplicates for a single type definition: invalid request');
}

function addTypes(types: Types, rootType: string, prefix: string, payload: JsonObject): string {
  const fields: TypedField[] = [];
  // Go's sort.Slice with strings.Compare(a, b) > 0: descending byte order.
  const keys = Object.keys(payload).sort((a, b) => (a < b ? 1 : a > b ? -1 : 0));
  for (const name of keys) {
    let field = payload[name]!;
    let collection = false;
    if (Array.isArray(field)) {
      if (field.length === 0) {
        fields.push({ name, type: 'string[]' });
        continue;
      }
      field = field[0]!;
      collection = true;
    }
    const ethType = ethTypeForJson(field);
    if (ethType !== '') {
      fields.push({ name, type: collection ? `${ethType}[]` : ethType });
      continue;
    }
    if (isObject(field)) {
      const typeDef = sanitizeTypedef(addTypes(types, rootType, `${prefix}.${name}`, field));
      fields.push({ name, type: collection ? `${typeDef}[]` : typeDef });
    }
  }
  return addTypesToRoot(types, prefix === '_' ? rootType : sanitizeTypedef(prefix), fields);
}

/** Ethermint's current EIP-712 typed data for an amino JSON sign doc (WrapTxToTypedData). */
export function eip712TypedData(chainId: bigint, signDocJson: string): TypedData {
  let payload: TypedValue;
  try {
    payload = JSON.parse(signDocJson) as TypedValue;
  } catch {
    throw new TypedDataError('invalid JSON received: failed to unmarshal JSON bytes');
  }
  if (!isObject(payload)) throw new TypedDataError('failed to JSON unmarshal data as object: failed to unmarshal JSON bytes');
  const msgs = payload['msgs'];
  if (msgs === undefined) throw new TypedDataError('failed to flatten payload JSON messages: no messages found in payload, unable to parse: invalid request');
  if (!Array.isArray(msgs)) throw new TypedDataError('failed to flatten payload JSON messages: expected type array of messages, cannot parse: invalid request');
  const message: JsonObject = { ...payload };
  msgs.forEach((msg, i) => {
    if (message[`msg${i}`] !== undefined) throw new TypedDataError(`failed to flatten payload JSON messages: malformed payload received, did not expect to find key at field msg${i}: invalid request`);
    if (!isObject(msg)) throw new TypedDataError(`failed to flatten payload JSON messages: msg at index ${i} is not valid JSON: invalid request`);
    message[`msg${i}`] = msg;
  });
  delete message['msgs'];
  const types: Types = baseTypes([]);
  msgs.forEach((_msg, i) => {
    const msg = message[`msg${i}`] as JsonObject;
    const aminoType = msg['type'];
    if (typeof aminoType !== 'string' || aminoType === '') throw new TypedDataError('malformed message type value, expected type string: invalid type');
    const rootType = `Type${aminoType.split('/').pop()!}`;
    const typeDef = addTypes(types, rootType, '_', msg);
    types['Tx']!.push({ name: `msg${i}`, type: typeDef });
  });
  return {
    types,
    primaryType: 'Tx',
    domain: { name: EIP712_DOMAIN_NAME, version: EIP712_DOMAIN_VERSION, chainId, verifyingContract: EIP712_VERIFYING_CONTRACT, salt: EIP712_SALT },
    message,
  };
}

function verifiesOver(typedData: () => TypedData, pubKey: PubKey, signature: Uint8Array): boolean {
  let hash: Uint8Array;
  try {
    hash = typedDataHash(typedData()).hash;
  } catch (err) {
    if (err instanceof TypedDataError) return false;
    throw err;
  }
  return secp256k1().verify(hash, signature, pubKey.key);
}

/**
 * The fallback the evm module offers the Cosmos ante chain: an eth_secp256k1 signature that does
 * not verify over its sign bytes may verify as EIP-712 (current encoding, then legacy).
 */
export const eip712SignatureFallback: SignatureFallback = {
  verify(pubKey, mode, signature, tx, signer, amino) {
    if (pubKey.algo !== 'eth_secp256k1') return false;
    if (mode !== SignMode.LEGACY_AMINO_JSON && mode !== SignMode.DIRECT) return false;
    const body = tx.body;
    if (mode === SignMode.DIRECT && (body.timeoutHeight !== 0n || body.extensionOptions.length > 0 || body.nonCriticalExtensionOptions.length > 0 || tx.signerInfos.length !== 1)) return false;
    const chainId = parseEthermintChainId(signer.chainId);
    if (chainId === undefined || tx.msgs.length === 0) return false;
    const first = tx.msgs[0]!.signers;
    if (first.length !== 1 || !tx.msgs.every((m) => m.signers.length === 1 && bytesEqual(m.signers[0]!, first[0]!))) return false;
    const sig = signature.length === 65 ? signature.subarray(0, 64) : signature;
    if (sig.length !== 64) return false;
    const fee = tx.authInfo.fee;
    let signDocJson: string;
    try {
      signDocJson = amino.signDocJson({
        chainId: signer.chainId,
        accountNumber: signer.accountNumber,
        sequence: signer.sequence,
        timeoutHeight: body.timeoutHeight,
        memo: body.memo,
        msgs: tx.msgs,
        // The amino sign doc as signed (payer, granter included); from a DIRECT SignDoc, StdFee{amount, gas}.
        fee: { amount: fee?.amount ?? [], gasLimit: fee?.gasLimit ?? 0n, payer: mode === SignMode.DIRECT ? '' : (fee?.payer ?? ''), granter: mode === SignMode.DIRECT ? '' : (fee?.granter ?? '') },
      });
    } catch {
      return false;
    }
    if (verifiesOver(() => eip712TypedData(chainId, signDocJson), pubKey, sig)) return true;
    // The legacy encoding: every message of the first one's amino type.
    const firstName = amino.encoder.aminoName(tx.msgs[0]!.schema);
    if (firstName === undefined || !tx.msgs.every((m) => amino.encoder.aminoName(m.schema) === firstName)) return false;
    return verifiesOver(() => legacyTypedData({ chainId, signDocJson, firstMsg: tx.msgs[0]!, feePayer: accString(first[0]!) }), pubKey, sig);
  },
};
