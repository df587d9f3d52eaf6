/**
 * Building and signing Cosmos SDK transactions on the client side: used by `gentx`, `tx send`,
 * `tx sign`, `tx multisign` and the other tx commands. Two sign modes, as the node accepts them:
 * SIGN_MODE_DIRECT (the proto SignDoc) and SIGN_MODE_LEGACY_AMINO_JSON (the amino StdSignDoc a
 * Ledger shows; multisig members sign this one). The node verifies exactly these bytes.
 */
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignDocSchema, SignerInfoSchema, TxBodySchema, TxRawSchema, TxSchema, type Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { CoinSchema } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../gen/cosmos/crypto/secp256k1/keys_pb.js';
import { anyPack } from '../codec/any.js';
import { AminoJsonError, AminoJsonSigner } from '../codec/aminoJson.js';
import { TokendError } from '../../util/errors.js';
import type { KeyAlgo, Keyring } from '../../keyring/types.js';
import type { CoinAmount } from './coins.js';
import type { SignModeName } from './signModes.js';

export const DEFAULT_GAS_LIMIT = 200_000n;

export { SIGN_MODE_NAMES, type SignModeName } from './signModes.js';

export function signModeFromName(name: SignModeName): SignMode {
  return name === 'amino-json' ? SignMode.LEGACY_AMINO_JSON : SignMode.DIRECT;
}

export interface TxSigner {
  algo: KeyAlgo;
  pubKey: Uint8Array;
  accountNumber: bigint;
  sequence: bigint;
}

export interface TxContent {
  messages: Any[];
  memo?: string;
  timeoutHeight?: bigint;
  fee: CoinAmount[];
  gasLimit: bigint;
  payer?: string;
  granter?: string;
}

export function packMessage<Desc extends DescMessage>(schema: Desc, message: MessageShape<Desc>): Any {
  return anyPack(schema, message);
}

export function pubKeyAny(algo: KeyAlgo, pubKey: Uint8Array): Any {
  return algo === 'eth_secp256k1'
    ? anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: pubKey }))
    : anyPack(Secp256k1PubKeySchema, create(Secp256k1PubKeySchema, { key: pubKey }));
}

export interface EncodedTxParts {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
}

/** Body and auth-info bytes for one signer (mode DIRECT, or UNSPECIFIED for simulation). */
export function encodeTxParts(content: TxContent, signer: Pick<TxSigner, 'algo' | 'pubKey' | 'sequence'>, mode: SignMode = SignMode.DIRECT): EncodedTxParts {
  const body = create(TxBodySchema, {
    messages: content.messages,
    memo: content.memo ?? '',
    timeoutHeight: content.timeoutHeight ?? 0n,
  });
  const authInfo = create(AuthInfoSchema, {
    signerInfos: [
      create(SignerInfoSchema, {
        publicKey: pubKeyAny(signer.algo, signer.pubKey),
        modeInfo: create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode }) } }),
        sequence: signer.sequence,
      }),
    ],
    fee: create(FeeSchema, {
      amount: content.fee.map((coin) => create(CoinSchema, { denom: coin.denom, amount: coin.amount.toString() })),
      gasLimit: content.gasLimit,
      payer: content.payer ?? '',
      granter: content.granter ?? '',
    }),
  });
  return { bodyBytes: toBinary(TxBodySchema, body), authInfoBytes: toBinary(AuthInfoSchema, authInfo) };
}

export function signDocBytes(parts: EncodedTxParts, chainId: string, accountNumber: bigint): Uint8Array {
  return toBinary(SignDocSchema, create(SignDocSchema, { bodyBytes: parts.bodyBytes, authInfoBytes: parts.authInfoBytes, chainId, accountNumber }));
}

let aminoSigner: AminoJsonSigner | undefined;

/** Who signs: the facts the sign bytes depend on besides the tx. */
export interface SignerFacts {
  chainId: string;
  accountNumber: bigint;
  sequence: bigint;
}

/**
 * The bytes `mode` signs for a tx made of `parts` (DIRECT: the SignDoc over the exact body and
 * auth-info bytes; LEGACY_AMINO_JSON: the StdSignDoc of the body's messages, memo and timeout
 * and the auth info's fee). A message without an amino name cannot be signed in amino mode.
 * Amino JSON needs every module's types and amino names (src/node/app/modules.ts): they are
 * loaded the first time that mode is used, so a DIRECT signature loads none of them.
 */
export async function signBytesForMode(mode: SignMode, parts: EncodedTxParts, signer: SignerFacts): Promise<Uint8Array> {
  if (mode === SignMode.DIRECT) return signDocBytes(parts, signer.chainId, signer.accountNumber);
  if (mode !== SignMode.LEGACY_AMINO_JSON) throw new TokendError('INVALID_ARGUMENT', `sign mode ${SignMode[mode]} is not supported; use direct or amino-json`);
  const body = fromBinary(TxBodySchema, parts.bodyBytes);
  const fee = fromBinary(AuthInfoSchema, parts.authInfoBytes).fee;
  if (body.extensionOptions.length > 0 || body.nonCriticalExtensionOptions.length > 0) {
    throw new TokendError('INVALID_ARGUMENT', 'a tx with extension options cannot be signed in amino-json mode; use --sign-mode direct');
  }
  if (aminoSigner === undefined) {
    const { AMINO_NAME_OVERRIDES } = await import('../app/modules.js');
    aminoSigner ??= new AminoJsonSigner({ nameOverrides: AMINO_NAME_OVERRIDES });
  }
  try {
    return aminoSigner.signBytes({
      chainId: signer.chainId,
      accountNumber: signer.accountNumber,
      sequence: signer.sequence,
      timeoutHeight: body.timeoutHeight,
      memo: body.memo,
      msgs: body.messages,
      fee: { amount: fee?.amount ?? [], gasLimit: fee?.gasLimit ?? 0n, payer: fee?.payer ?? '', granter: fee?.granter ?? '' },
    });
  } catch (err) {
    if (err instanceof AminoJsonError) throw new TokendError('INVALID_ARGUMENT', `cannot sign in amino-json mode: ${err.message}`, { hint: 'use --sign-mode direct' });
    throw err;
  }
}

export function encodeTxRaw(parts: EncodedTxParts, signatures: Uint8Array[]): Uint8Array {
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: parts.bodyBytes, authInfoBytes: parts.authInfoBytes, signatures }));
}

/** Sign `content` with the keyring key `from` (in `mode`, DIRECT by default) and return the broadcastable TxRaw bytes. */
export async function signTx(keyring: Keyring, from: string, content: TxContent, signer: TxSigner, chainId: string, mode: SignMode = SignMode.DIRECT): Promise<{ txBytes: Uint8Array; parts: EncodedTxParts; signature: Uint8Array }> {
  const parts = encodeTxParts(content, signer, mode);
  const signed = await keyring.sign(from, await signBytesForMode(mode, parts, { chainId, accountNumber: signer.accountNumber, sequence: signer.sequence }));
  return { txBytes: encodeTxRaw(parts, [signed.signature]), parts, signature: signed.signature };
}

/** The structured Tx (body + auth info + signatures) for JSON output (`--generate-only`, gentx files). */
export function txFromParts(parts: EncodedTxParts, signatures: Uint8Array[]): Tx {
  // Decoding again keeps the JSON identical to what a node would decode from the TxRaw.
  return create(TxSchema, {
    body: fromBinary(TxBodySchema, parts.bodyBytes),
    authInfo: fromBinary(AuthInfoSchema, parts.authInfoBytes),
    signatures,
  });
}
