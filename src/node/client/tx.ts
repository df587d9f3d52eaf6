/**
 * Building and signing Cosmos SDK transactions (SIGN_MODE_DIRECT) on the client side: used by
 * `gentx`, `tx send` and the other tx commands. The node verifies exactly these bytes.
 */
import { create, fromBinary, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignDocSchema, SignerInfoSchema, TxBodySchema, TxRawSchema, TxSchema, type Tx } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { CoinSchema } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../gen/cosmos/crypto/secp256k1/keys_pb.js';
import { anyPack } from '../codec/any.js';
import type { KeyAlgo, Keyring } from '../../keyring/types.js';
import type { CoinAmount } from './coins.js';

export const DEFAULT_GAS_LIMIT = 200_000n;

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

export function encodeTxRaw(parts: EncodedTxParts, signatures: Uint8Array[]): Uint8Array {
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: parts.bodyBytes, authInfoBytes: parts.authInfoBytes, signatures }));
}

/** Sign `content` with the keyring key `from` and return the broadcastable TxRaw bytes. */
export async function signTx(keyring: Keyring, from: string, content: TxContent, signer: TxSigner, chainId: string): Promise<{ txBytes: Uint8Array; parts: EncodedTxParts; signature: Uint8Array }> {
  const parts = encodeTxParts(content, signer);
  const signed = await keyring.sign(from, signDocBytes(parts, chainId, signer.accountNumber));
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
