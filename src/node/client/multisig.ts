/**
 * Multisig on the client: the offline flow a custodian runs, as the SDK's CLI has it.
 *
 *   tokend keys add vault --multisig a,b,c --multisig-threshold 2
 *   tokend tx send vault token1… 100attotoken --generate-only > unsigned.json
 *   tokend tx sign unsigned.json --from a --multisig vault > a.json       (each member, anywhere)
 *   tokend tx sign unsigned.json --from b --multisig vault > b.json
 *   tokend tx multisign unsigned.json vault a.json b.json > signed.json
 *   tokend tx broadcast signed.json
 *
 * A member's signature file is the SDK's SignatureDescriptors JSON:
 * `{"signatures":[{"public_key":{…},"data":{"single":{"mode":"SIGN_MODE_LEGACY_AMINO_JSON",
 * "signature":"…"}},"sequence":"N"}]}`. Members sign in amino-json mode: the direct sign bytes
 * include the final signer info, whose bit array is only known once the signatures are combined.
 * `multisign` checks every signature against the tx before combining them (a signature made for
 * another tx, chain id, account number or sequence is refused, naming its file), refuses repeated
 * members, non-members and fewer signatures than the threshold, and writes the signed tx with the
 * multisig's signer info (LegacyAminoPubKey, ModeInfo.multi{bitarray, mode_infos}) and one
 * MultiSignature{signatures}.
 */
import { readFileSync } from 'node:fs';
import { create, toBinary } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { LegacyAminoPubKeySchema } from '../../gen/cosmos/crypto/multisig/keys_pb.js';
import { CompactBitArraySchema } from '../../gen/cosmos/crypto/multisig/v1beta1/multisig_pb.js';
import { encodeMultiSignature } from '../app/tx.js';
import {
  SignatureDescriptor_Data_SingleSchema,
  SignatureDescriptor_DataSchema,
  SignatureDescriptorSchema,
  SignatureDescriptorsSchema,
  SignMode,
  type SignatureDescriptors,
} from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, ModeInfo_MultiSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxSchema, type ModeInfo, type SignerInfo, type Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { addressFromPublicKey, PUBKEY_ALGO_BY_TYPE_URL, verifySignature } from '../../keyring/keys.js';
import type { KeyAlgo, KeyRecord, Keyring, MultisigKeyRecord } from '../../keyring/types.js';
import { toAccountAddress } from '../../keyring/address.js';
import { TokendError } from '../../util/errors.js';
import { anyPack, anyUnpack } from '../codec/any.js';
import { registry } from '../codec/registry.js';
import { fromGatewayJson, toGatewayJson } from '../codec/json.js';
import type { JsonValue } from './query.js';
import { pubKeyAny, signBytesForMode, type EncodedTxParts, type SignerFacts } from './tx.js';

/** The multisig's public key as the Any the chain stores (/cosmos.crypto.multisig.LegacyAminoPubKey). */
export function multisigPubKeyAny(record: MultisigKeyRecord): Any {
  return anyPack(LegacyAminoPubKeySchema, create(LegacyAminoPubKeySchema, { threshold: record.threshold, publicKeys: record.members.map((m) => pubKeyAny(m.algo, m.pubKey)) }));
}

function singleMode(mode: SignMode): ModeInfo {
  return create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode }) } });
}

/** ModeInfo.multi with the bits of `indices` set out of `size`, one mode per set bit (in index order). */
export function multiModeInfo(size: number, indices: readonly number[], modes: readonly SignMode[]): ModeInfo {
  const elems = new Uint8Array(Math.ceil(size / 8));
  for (const index of indices) elems[index >> 3]! |= 1 << (7 - (index % 8));
  return create(ModeInfoSchema, {
    sum: {
      case: 'multi',
      value: create(ModeInfo_MultiSchema, { bitarray: create(CompactBitArraySchema, { elems, extraBitsStored: size % 8 }), modeInfos: modes.map(singleMode) }),
    },
  });
}

/**
 * A signer info and signature standing for the multisig in a simulation: the first `threshold`
 * members signing in amino mode with empty signatures, so the node charges their signature gas.
 */
export function simulationMultisig(record: MultisigKeyRecord, sequence: bigint): { signerInfo: SignerInfo; signature: Uint8Array } {
  const indices = record.members.slice(0, record.threshold).map((_m, i) => i);
  return {
    signerInfo: create(SignerInfoSchema, {
      publicKey: multisigPubKeyAny(record),
      modeInfo: multiModeInfo(record.members.length, indices, indices.map(() => SignMode.LEGACY_AMINO_JSON)),
      sequence,
    }),
    signature: encodeMultiSignature(indices.map(() => new Uint8Array(0))),
  };
}

/** The index of a member key in the multisig, or -1. */
export function memberIndex(record: MultisigKeyRecord, algo: KeyAlgo, pubKey: Uint8Array): number {
  return record.members.findIndex((m) => m.algo === algo && Buffer.compare(Buffer.from(m.pubKey), Buffer.from(pubKey)) === 0);
}

function partsOf(tx: Tx): EncodedTxParts {
  if (!tx.body || !tx.authInfo) throw new TokendError('INVALID_ARGUMENT', 'the transaction has no body or auth_info');
  return { bodyBytes: toBinary(TxBodySchema, tx.body), authInfoBytes: toBinary(AuthInfoSchema, tx.authInfo) };
}

/** A member's signature as SignatureDescriptors JSON (what `tx sign --multisig` prints). */
export function signatureDescriptorsJson(algo: KeyAlgo, pubKey: Uint8Array, mode: SignMode, signature: Uint8Array, sequence: bigint): JsonValue {
  const descriptors = create(SignatureDescriptorsSchema, {
    signatures: [
      create(SignatureDescriptorSchema, {
        publicKey: pubKeyAny(algo, pubKey),
        data: create(SignatureDescriptor_DataSchema, { sum: { case: 'single', value: create(SignatureDescriptor_Data_SingleSchema, { mode, signature }) } }),
        sequence,
      }),
    ],
  });
  return toGatewayJson(SignatureDescriptorsSchema, descriptors, { registry }) as JsonValue;
}

/** The bytes a member signs for the multisig: amino JSON over the unsigned tx (signer infos play no part). */
export async function memberSignBytes(tx: Tx, facts: SignerFacts, mode: SignMode = SignMode.LEGACY_AMINO_JSON): Promise<Uint8Array> {
  if (mode !== SignMode.LEGACY_AMINO_JSON) {
    throw new TokendError('INVALID_ARGUMENT', 'multisig members sign in amino-json mode', {
      hint: 'the direct sign bytes include the final signer info, which is known only after `tx multisign`; drop --sign-mode direct',
    });
  }
  return signBytesForMode(mode, partsOf(tx), facts);
}

/**
 * One member's signature for the multisig (`tx sign FILE --from MEMBER --multisig NAME`): checks
 * the key is a member (when the multisig key is in the keyring; the amino sign bytes do not
 * depend on it, so a bare address works too), signs the unsigned tx's amino JSON for the
 * multisig account (`facts`), and returns the SignatureDescriptors JSON.
 */
export async function signAsMember(tx: Tx, keyring: Keyring, key: KeyRecord, record: MultisigKeyRecord | undefined, name: string, facts: SignerFacts, mode: SignMode = SignMode.LEGACY_AMINO_JSON): Promise<JsonValue> {
  if (record !== undefined && memberIndex(record, key.algo, key.pubKey) < 0) {
    throw new TokendError('INVALID_ARGUMENT', `key "${key.name}" is not a member of the multisig key "${name}"`, { hint: `show the members with: tokend keys show ${name}` });
  }
  const signed = await keyring.sign(key.name, await memberSignBytes(tx, facts, mode));
  return signatureDescriptorsJson(key.algo, key.pubKey, mode, signed.signature, facts.sequence);
}

interface MemberSignature {
  file: string;
  index: number;
  algo: KeyAlgo;
  pubKey: Uint8Array;
  mode: SignMode;
  signature: Uint8Array;
  sequence: bigint;
}

/** Reads a signature file (SignatureDescriptors JSON; "-" for stdin). */
export function readSignatureFile(path: string): SignatureDescriptors {
  let text: string;
  try {
    text = path === '-' ? readFileSync(0, 'utf8') : readFileSync(path, 'utf8');
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', `cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    return fromGatewayJson(SignatureDescriptorsSchema, JSON.parse(text) as Parameters<typeof fromGatewayJson>[1], { registry });
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', `${path} is not a signature file (the output of \`tx sign --multisig\`): ${(err as Error).message}`);
  }
}

function memberSignatures(record: MultisigKeyRecord, name: string, files: readonly { path: string; descriptors: SignatureDescriptors }[]): MemberSignature[] {
  const found: MemberSignature[] = [];
  for (const { path, descriptors } of files) {
    if (descriptors.signatures.length === 0) throw new TokendError('INVALID_ARGUMENT', `${path} holds no signature`);
    for (const descriptor of descriptors.signatures) {
      const any = descriptor.publicKey;
      const algo = any === undefined ? undefined : PUBKEY_ALGO_BY_TYPE_URL.get(any.typeUrl);
      if (any === undefined || algo === undefined) throw new TokendError('INVALID_ARGUMENT', `${path}: the signature's public key ${any?.typeUrl ?? '(none)'} is not a member key type`);
      const pubKey = keyBytesOf(any);
      const data = descriptor.data?.sum;
      if (data?.case !== 'single') throw new TokendError('INVALID_ARGUMENT', `${path}: expected a single member signature`);
      const index = memberIndex(record, algo, pubKey);
      const signer = toAccountAddress(addressFromPublicKey(algo, pubKey));
      if (index < 0) throw new TokendError('INVALID_ARGUMENT', `${path}: the signature is from ${signer}, which is not a member of the multisig key "${name}"`);
      const previous = found.find((f) => f.index === index);
      if (previous !== undefined) throw new TokendError('INVALID_ARGUMENT', `${path} repeats the signature of member ${signer} (already in ${previous.file}); each member signs once`);
      found.push({ file: path, index, algo, pubKey, mode: data.value.mode, signature: data.value.signature, sequence: descriptor.sequence });
    }
  }
  return found;
}

function keyBytesOf(any: Any): Uint8Array {
  let key: unknown;
  try {
    key = (anyUnpack(any) as unknown as { key?: unknown }).key;
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', `malformed public key ${any.typeUrl}: ${(err as Error).message}`);
  }
  if (!(key instanceof Uint8Array) || key.length !== 33) throw new TokendError('INVALID_ARGUMENT', `malformed public key ${any.typeUrl}`);
  return key;
}

/**
 * Combines member signatures into the multisig's signed tx (`tx multisign`). `facts` are the
 * multisig account's chain id, account number and sequence. Throws one clear TokendError for a
 * signature that does not verify, a repeated member, a non-member, or too few signatures.
 */
export async function combineMultisig(tx: Tx, record: MultisigKeyRecord, name: string, files: readonly { path: string; descriptors: SignatureDescriptors }[], facts: SignerFacts): Promise<Tx> {
  if (!tx.body || !tx.authInfo) throw new TokendError('INVALID_ARGUMENT', 'the transaction has no body or auth_info');
  const members = memberSignatures(record, name, files).sort((a, b) => a.index - b.index);
  if (members.length < record.threshold) {
    throw new TokendError('INVALID_ARGUMENT', `the multisig key "${name}" needs ${record.threshold} signatures, got ${members.length}`, { hint: 'collect more member signatures with `tokend tx sign FILE --from MEMBER --multisig ' + name + '`' });
  }
  for (const member of members) {
    if (member.sequence !== facts.sequence) {
      throw new TokendError('INVALID_ARGUMENT', `${member.file} was signed for sequence ${member.sequence}, but the multisig account is at sequence ${facts.sequence}`, { hint: 'have the member sign the tx again' });
    }
  }
  const signerInfo = create(SignerInfoSchema, {
    publicKey: multisigPubKeyAny(record),
    modeInfo: multiModeInfo(record.members.length, members.map((m) => m.index), members.map((m) => m.mode)),
    sequence: facts.sequence,
  });
  const authInfo = create(AuthInfoSchema, { ...tx.authInfo, signerInfos: [signerInfo] });
  const signed = create(TxSchema, { body: tx.body, authInfo, signatures: [encodeMultiSignature(members.map((m) => m.signature))] });
  const parts = partsOf(signed);
  const bytesByMode = new Map<SignMode, Uint8Array>();
  for (const member of members) {
    let bytes = bytesByMode.get(member.mode);
    if (bytes === undefined) {
      bytes = await signBytesForMode(member.mode, parts, facts);
      bytesByMode.set(member.mode, bytes);
    }
    if (!verifySignature(member.algo, member.pubKey, bytes, member.signature)) {
      throw new TokendError('INVALID_ARGUMENT', `the signature in ${member.file} does not verify for this transaction`, {
        hint: `it was made for another tx, chain id (${facts.chainId}), account number (${facts.accountNumber}) or sequence (${facts.sequence})`,
      });
    }
  }
  return signed;
}
