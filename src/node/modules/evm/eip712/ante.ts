/**
 * The ante chain of Cosmos txs signed as EIP-712 typed data by an Ethereum wallet: txs whose
 * first extension option is `/ethermint.types.v1.ExtensionOptionsWeb3Tx` (Ethermint v0.22's
 * NewLegacyCosmosAnteHandlerEip712). It is the Cosmos chain with two differences: MsgEthereumTx
 * is refused up front, there is no extension-option check, and signature verification is the
 * EIP-712 one below:
 *
 *   RejectMessages, SetUpContext, ValidateBasic, TxTimeoutHeight, MinGasPrice, ValidateMemo,
 *   ConsumeGasForTxSize, DeductFee, SetPubKey, ValidateSigCount, SigGasConsume,
 *   Eip712SigVerification, IncrementSequence, GasWanted
 *
 * Eip712SigVerification (skipped on ReCheck): exactly one signature (else 14), an account with a
 * key (8), sequence = the account's (32); not in simulate: the signer info's mode must be
 * LEGACY_AMINO_JSON and the Cosmos signature empty; the extension's typed_data_chain_id must be
 * the chain's EIP-155 id; its fee_payer a bech32 address; the typed data (see legacy.ts) is
 * hashed, the 65-byte fee_payer_sig (v 27/28 or 0/1) recovers a key that must be the account's
 * key and whose address must be fee_payer, and the signature must verify (low S). Any failure is
 * code 4 "signature verification failed; please verify account number (N) and chain-id (C):
 * <Ethermint's reason>".
 */
import { fromBinary } from '@bufbuild/protobuf';
import { SignMode } from '../../../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { ExtensionOptionsWeb3TxSchema, type ExtensionOptionsWeb3Tx } from '../../../../gen/ethermint/types/v1/web3_pb.js';
import { keccak256 } from '../../../../keyring/hash.js';
import { secp256k1 } from '../../../../keyring/secp256k1.js';
import { consumeGasForTxSize, deductFee, incrementSequence, setPubKey, setUpContext, sigGasConsume, txTimeoutHeight, validateBasic, validateMemo, validateSigCount } from '../../../app/ante/index.js';
import { withInsertions, type AnteChain, type AnteDecorator, type AnteInsertion, type AnteState } from '../../../app/ante/types.js';
import { signaturesOf } from '../../../app/ante/signatures.js';
import type { DecodedTx, SignatureData } from '../../../app/tx.js';
import type { AminoJsonSigner } from '../../../codec/aminoJson.js';
import { pubKeysEqual, type PubKey } from '../../auth/account.js';
import { accString, parseBech32, ACCOUNT_PREFIX } from '../../shared/address.js';
import { SdkErrors, type SdkError } from '../../shared/errors.js';
import { MSG_ETHEREUM_TX_URL } from '../keys.js';
import { legacyTypedData } from './legacy.js';
import { TypedDataEncoder, TypedDataError, typedDataHash, type TypedData } from './typedData.js';
import { AminoJsonError } from '../../../codec/aminoJson.js';

export const EXTENSION_OPTIONS_WEB3_TX_URL = `/${ExtensionOptionsWeb3TxSchema.typeName}`;

/** Ethermint's RejectMessagesDecorator: a MsgEthereumTx only travels with ExtensionOptionsEthereumTx. */
export const rejectEthereumMessages: AnteDecorator = {
  name: 'RejectMessages',
  handle(state) {
    for (const msg of state.tx.msgs) {
      if (msg.typeUrl === MSG_ETHEREUM_TX_URL) throw SdkErrors.InvalidType.wrap("MsgEthereumTx needs to be contained within a tx with 'ExtensionOptionsEthereumTx' option");
    }
  },
};

/** Why the EIP-712 signature does not verify: Ethermint's wrapped error, as a registered error or plain text. */
export class Eip712Failure extends Error {
  constructor(readonly reason: SdkError | string) {
    super(typeof reason === 'string' ? reason : reason.log);
  }
}

function fail(reason: SdkError | string): never {
  throw new Eip712Failure(reason);
}

function hex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex').toUpperCase();
}

/** How Ethermint prints an eth_secp256k1 key in its mismatch error. */
function showKey(pubKey: PubKey): string {
  return `EthPubKeySecp256k1{${hex(pubKey.key)}}`;
}

export interface Eip712Deps {
  /** The chain's EIP-155 chain id (what typed_data_chain_id must be). */
  chainId(state: AnteState): bigint;
}

/** What the verification needs from the tx: the Web3 extension, decoded. */
function web3Option(tx: DecodedTx): ExtensionOptionsWeb3Tx {
  const options = tx.extensionOptions;
  if (options.length !== 1) fail(SdkErrors.UnknownExtensionOptions.wrap('tx doesnt contain expected amount of extension options'));
  const option = options[0]!;
  if (option.typeUrl !== EXTENSION_OPTIONS_WEB3_TX_URL) fail(SdkErrors.UnknownExtensionOptions.wrap('unknown extension option'));
  try {
    return fromBinary(ExtensionOptionsWeb3TxSchema, option.value);
  } catch {
    return fail(SdkErrors.UnknownExtensionOptions.wrap('unknown extension option'));
  }
}

/** Whose EIP-712 signature is checked: the facts besides the tx. */
export interface Eip712Signer {
  /** The Cosmos chain id (in the sign doc). */
  readonly chainId: string;
  /** The chain's EIP-155 chain id (what typed_data_chain_id must be). */
  readonly eip155ChainId: bigint;
  /** 0 at genesis, else the account's number. */
  readonly accountNumber: bigint;
  readonly sequence: bigint;
  /** The account's key. */
  readonly pubKey: PubKey;
}

/**
 * Verifies the EIP-712 signature of signer 0 (Ethermint's VerifySignature for the legacy path);
 * throws Eip712Failure with the reason. `cached` skips the expensive part when CheckTx already
 * verified this tx with the same facts.
 */
export function verifyLegacyEip712(tx: DecodedTx, data: SignatureData, signer: Eip712Signer, amino: AminoJsonSigner, cached: () => boolean = () => false): void {
  const { pubKey, accountNumber, sequence } = signer;
  if (data.kind !== 'single') fail(SdkErrors.TooManySignatures.wrap('unexpected SignatureData *signing.MultiSignatureData'));
  if (data.mode !== SignMode.LEGACY_AMINO_JSON) fail(SdkErrors.NotSupported.wrap('unexpected SignatureData *signing.SingleSignatureData: wrong SignMode'));
  if (data.signature.length !== 0) fail(SdkErrors.TooManySignatures.wrap('invalid signature value; EIP712 must have the cosmos transaction signature empty'));
  if (tx.msgs.length === 0) fail(SdkErrors.NoSignatures.wrap("tx doesn't contain any msgs to verify signature"));
  const option = web3Option(tx);
  if (option.typedDataChainId !== signer.eip155ChainId) fail(SdkErrors.InvalidChainID.wrap('invalid chain-id'));
  if (option.feePayer.length === 0) fail(SdkErrors.UnknownExtensionOptions.wrap('no feePayer on ExtensionOptionsWeb3Tx'));
  const parsed = parseBech32(option.feePayer, ACCOUNT_PREFIX);
  if (!parsed.ok) fail(`failed to parse feePayer from ExtensionOptionsWeb3Tx: ${parsed.error}`);
  const feePayer = parsed.bytes;
  if (cached()) return;

  let typedData: TypedData;
  try {
    const fee = tx.authInfo.fee;
    const signDocJson = amino.signDocJson({
      chainId: signer.chainId,
      accountNumber,
      sequence,
      timeoutHeight: tx.timeoutHeight,
      memo: tx.memo,
      msgs: tx.msgs,
      // legacytx.StdFee{Amount, Gas}: the fee's payer and granter are not part of this document.
      fee: { amount: fee?.amount ?? [], gasLimit: fee?.gasLimit ?? 0n, payer: '', granter: '' },
    });
    typedData = legacyTypedData({ chainId: option.typedDataChainId, signDocJson, firstMsg: tx.msgs[0]!, feePayer: accString(feePayer) });
  } catch (err) {
    if (err instanceof TypedDataError || err instanceof AminoJsonError) fail(`failed to create EIP-712 typed data from tx: ${err.message}`);
    throw err;
  }
  let hash: Uint8Array;
  try {
    // Ethermint returns go-ethereum's hashing errors as they are (a mixed-type tx fails here).
    hash = typedDataHash(typedData, new TypedDataEncoder(typedData.types)).hash;
  } catch (err) {
    if (err instanceof TypedDataError) fail(err.message);
    throw err;
  }

  const signature = Uint8Array.from(option.feePayerSig);
  if (signature.length !== 65) fail(SdkErrors.InvalidSigner.wrap("signature length doesn't match typical [R||S||V] signature 65 bytes"));
  // MetaMask's v is 27/28; go-ethereum's recovery wants 0/1.
  const v = signature[64]!;
  if (v === 27 || v === 28) signature[64] = v - 27;
  if (signature[64]! >= 4) fail('failed to recover delegated fee payer from sig: invalid signature recovery id');
  let recovered: Uint8Array;
  try {
    recovered = secp256k1().recover(hash, signature.subarray(0, 64), signature[64]!, true);
  } catch {
    return fail('failed to recover delegated fee payer from sig: recovery failed');
  }
  const recoveredKey: PubKey = { algo: 'eth_secp256k1', key: recovered, typeUrl: pubKey.typeUrl };
  if (!(pubKey.algo === 'eth_secp256k1' && pubKeysEqual(pubKey, recoveredKey))) {
    fail(SdkErrors.InvalidPubKey.wrap(`feePayer pubkey ${showKey(pubKey)} is different from transaction pubkey ${showKey(recoveredKey)}`));
  }
  const uncompressed = secp256k1().convertPublicKey(recovered, false);
  const recoveredAddress = keccak256(uncompressed.subarray(1)).subarray(12);
  if (Buffer.compare(Buffer.from(recoveredAddress), Buffer.from(feePayer)) !== 0) {
    fail(SdkErrors.InvalidSigner.wrap(`failed to verify delegated fee payer ${accString(recoveredAddress)} signature`));
  }
  if (!secp256k1().verify(hash, signature.subarray(0, 64), pubKey.key)) fail(SdkErrors.InvalidSigner.wrap('unable to verify signer signature of EIP712 typed data'));
}

/** Ethermint's LegacyEip712SigVerificationDecorator. */
export function eip712SigVerification(deps: Eip712Deps): AnteDecorator {
  return {
    name: 'Eip712SigVerification',
    handle(state, env) {
      const { ctx, tx } = state;
      if (ctx.isReCheckTx) return;
      const sigs = signaturesOf(state);
      if (sigs.length !== 1) throw SdkErrors.TooManySignatures.wrap(`invalid number of signers (${sigs.length});  EIP712 signatures allows just one signature`);
      if (sigs.length !== tx.signers.length) throw SdkErrors.InvalidSigner.wrap(`invalid number of signers;  expected: ${tx.signers.length}, got ${sigs.length}`);
      const signer = tx.signers[0]!;
      const account = env.accountKeeper.getAccount(ctx, signer);
      if (account === undefined) throw SdkErrors.UnknownAddress.wrap(`account ${accString(signer)} does not exist`);
      const pubKey = account.pubKey;
      if (!state.simulate && pubKey === undefined) throw SdkErrors.InvalidPubKey.wrap('pubkey on account is not set');
      const sequence = tx.signerInfos[0]!.sequence;
      if (sequence !== account.sequence) throw SdkErrors.WrongSequence.wrap(`account sequence mismatch, expected ${account.sequence}, got ${sequence}`);
      const accountNumber = ctx.blockHeight === 0 ? 0n : account.accountNumber;
      if (state.simulate || pubKey === undefined) return;
      const cached = () => env.sigCache.has(tx.hash, ctx.chainId, 0, accountNumber, pubKey);
      const signerFacts: Eip712Signer = { chainId: ctx.chainId, eip155ChainId: deps.chainId(state), accountNumber, sequence: account.sequence, pubKey };
      try {
        verifyLegacyEip712(tx, signaturesOf(state)[0]!, signerFacts, env.signModes.amino, cached);
      } catch (err) {
        if (!(err instanceof Eip712Failure)) throw err;
        throw SdkErrors.Unauthorized.wrap(`signature verification failed; please verify account number (${accountNumber}) and chain-id (${ctx.chainId}): ${err.message}`);
      }
      if (ctx.mode === 'check') env.sigCache.add(tx.hash, ctx.chainId, 0, { accountNumber, pubKey });
    },
  };
}

/**
 * The chain for ExtensionOptionsWeb3Tx: the Cosmos decorators with Ethermint's EIP-712
 * verification, plus the EVM's insertions into the Cosmos chain (min gas price, gas wanted).
 */
export function web3AnteChain(deps: Eip712Deps, evmInsertions: readonly AnteInsertion[]): AnteChain {
  const base: AnteChain = [
    rejectEthereumMessages,
    setUpContext,
    validateBasic,
    txTimeoutHeight,
    validateMemo,
    consumeGasForTxSize,
    deductFee,
    setPubKey,
    validateSigCount,
    sigGasConsume,
    eip712SigVerification(deps),
    incrementSequence,
  ];
  return withInsertions(base, evmInsertions);
}
