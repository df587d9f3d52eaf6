/** The shapes every decorator shares: the state it mutates, the environment it reads, itself. */
import type { PubKey } from '../../modules/auth/account.js';
import type { DecCoin } from '../../modules/shared/coins.js';
import type { Context } from '../../modules/shared/context.js';
import type { SignMode } from '../../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import type { AminoJsonSigner } from '../../codec/aminoJson.js';
import type { SignerData, SignModeHandler, VerifiedSignatureCache, VerifyJob } from '../sigverify.js';
import type { DecodedTx, SignatureData } from '../tx.js';
import type { AnteAccountKeeper, AnteBankKeeper, FeeGrantKeeper } from './expectedKeepers.js';

/** Signatures of the block being finalized that worker threads verified ahead of execution. */
export interface PreverifiedSignatures {
  check(hash: Uint8Array, chainId: string, index: number, accountNumber: bigint, pubKey: PubKey): boolean;
  /** The block is done: stop the workers. */
  finish(): void;
}

/** What the app supplies per tx: keepers, node settings and the verification caches. */
export interface AnteEnvBase {
  readonly accountKeeper: AnteAccountKeeper;
  readonly bankKeeper: AnteBankKeeper;
  readonly minGasPrices: readonly DecCoin[];
  readonly sigCache: VerifiedSignatureCache;
  /** Block max gas from the consensus params (≤ 0: no limit). */
  readonly maxBlockGas: bigint;
  readonly preverified?: PreverifiedSignatures;
}

/**
 * Another way a single signature may be valid when it does not verify over its sign bytes: a
 * module's hook into SigVerification (Ethermint: an eth_secp256k1 signature over the EIP-712
 * typed data of the sign doc). Called only after the plain check failed.
 */
export interface SignatureFallback {
  verify(pubKey: PubKey, mode: SignMode, signature: Uint8Array, tx: DecodedTx, signer: SignerData, amino: AminoJsonSigner): boolean;
}

/**
 * A signature check a module hands to the app's pre-check (App.precheckTx: on the worker
 * threads, ahead of CheckTx): `accept` runs on the main thread when the job passes, to record
 * what the module's ante chain then need not recompute. A job that fails or never runs records
 * nothing, so the ante chain's own check decides (the evm module's Ethereum sender recovery).
 */
export interface PrecheckedSignature {
  readonly job: VerifyJob;
  accept(): void;
}

/** A module's pre-check: the jobs for `tx` over the CheckTx state (none when it is not its kind of tx). */
export type SignaturePrecheck = (ctx: Context, tx: DecodedTx) => readonly PrecheckedSignature[];

/** The full environment of a decorator: the app's part plus the ante handler's configuration. */
export interface AnteEnv extends AnteEnvBase {
  /** The sign modes the node accepts (DIRECT, LEGACY_AMINO_JSON with the app's amino names). */
  readonly signModes: SignModeHandler;
  /** Undefined while no feegrant module is wired: a fee granter is then refused (18). */
  readonly feeGrantKeeper?: FeeGrantKeeper;
  /** A module's second way for a signature to verify (the evm module's EIP-712), if any. */
  readonly signatureFallback?: SignatureFallback;
}

export interface AnteState {
  ctx: Context;
  readonly tx: DecodedTx;
  readonly simulate: boolean;
  /** Mempool priority (min fee per gas over the fee coins), set by deductFee. */
  priority: bigint;
  /** Each signer's signature data (mode info applied to the signature bytes), decoded once on first use. */
  signatureData?: readonly SignatureData[];
}

/**
 * One step of an ante chain: checks or charges, mutating `state`; failures are thrown (SdkErrors).
 * A step that has to wait (ibc's redundant-relay check executes messages) returns a promise; the
 * others stay synchronous, and so does the chain of a tx that meets none of the waiting ones.
 */
export interface AnteDecorator {
  readonly name: string;
  handle(state: AnteState, env: AnteEnv): void | Promise<void>;
}

/** An ordered list of decorators: what one kind of tx goes through before its messages. */
export type AnteChain = readonly AnteDecorator[];

/**
 * A decorator a module adds to the default (Cosmos) chain: before the decorator named `before`,
 * or at the end (Ethermint's app adds its fee-market decorators to the SDK chain this way).
 */
export interface AnteInsertion {
  readonly before?: string;
  readonly decorator: AnteDecorator;
}

/** `chain` with `insertions` placed (in order); an unknown `before` name is a wiring error. */
export function withInsertions(chain: AnteChain, insertions: readonly AnteInsertion[]): AnteChain {
  const out = [...chain];
  for (const { before, decorator } of insertions) {
    if (before === undefined) {
      out.push(decorator);
      continue;
    }
    const at = out.findIndex((d) => d.name === before);
    if (at < 0) throw new Error(`ante decorator ${decorator.name} is to go before ${before}, which is not in the chain`);
    out.splice(at, 0, decorator);
  }
  return out;
}
