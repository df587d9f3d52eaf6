/**
 * The ante handler: the checks and charges a tx goes through before its messages run.
 *
 * The default chain (Cosmos txs), in the order of the SDK 0.50 ante handler (x/auth/ante
 * NewAnteHandler) with Ethermint's signature gas; codes and log texts are the SDK's (COMPAT §3.3):
 *
 *   1  SetUpContext        gas meter = gas_limit (infinite in simulate and at height 0);
 *                          gas_limit > block max gas → 11 "tx gas wanted X exceeds block max gas limit Y"
 *   2  ExtensionOptions    an extension option nobody accepts → 31
 *   3  ValidateBasic       (skipped on ReCheck) gas > 2^63-1 → 18; missing/negative fee → 13;
 *                          no signatures → 15; signatures ≠ signers → 4 "wrong number of signers…"
 *   4  TxTimeoutHeight     height > timeout_height → 30 "block height: H, timeout height: T"
 *   5  ValidateMemo        memo bytes > max_memo_characters → 12
 *   6  ConsumeGasForTxSize tx_size_cost_per_byte × len(tx) ("txSize"); simulate adds a
 *                          signature's worth per empty signature
 *   7  DeductFee           gas 0 → 41 (in practice the params read of step 5 runs out of gas
 *                          first: 11 "out of gas in location: ReadFlat; gasWanted: 0, …", as in
 *                          the SDK); min gas prices (CheckTx/ReCheck only) → 13 "insufficient fees;
 *                          got: F required: R"; fee granter: the fee-grant keeper must allow it
 *                          (its error, wrapped "<granter> does not allow to pay fees for <payer>"),
 *                          without one → 18 "fee grants are not enabled"; payer unknown → 9;
 *                          fee → fee_collector, low balance → 5; emits tx{fee, fee_payer}
 *   8  SetPubKey           stores signer-info keys on accounts; key/address mismatch → 8; emits
 *                          tx{acc_seq} and tx{signature} per signer (a multisig: each member's, then
 *                          the aggregate)
 *   9  ValidateSigCount    > tx_sig_limit keys (multisig members counted) → 14
 *  10  SigGasConsume       eth_secp256k1 21000, secp256k1 sig_verify_cost_secp256k1, ed25519 → 8,
 *                          multisig: the sum over the members that signed
 *  11  SigVerification     no key → 8; sequence mismatch → 32 (also in simulate); bad signature
 *                          → 4 (skipped in simulate and ReCheck; reused from the verified cache);
 *                          SIGN_MODE_DIRECT and SIGN_MODE_LEGACY_AMINO_JSON, single and multisig keys
 *  12  IncrementSequence   +1 per signer
 *
 * Decorators depend only on the narrow keeper interfaces of `expectedKeepers.ts`. Other tx kinds
 * get their own chain through the `AnteRouter` (by extension option type URL):
 *
 *   app.ante.router.register('/ethermint.evm.v1.ExtensionOptionsEthereumTx', evmChain);
 *   app.ante.configure({ feeGrantKeeper, aminoNameOverrides });
 */
import type { Any } from '@bufbuild/protobuf/wkt';
import type { AminoJsonOptions } from '../../codec/aminoJson.js';
import { AminoJsonSigner } from '../../codec/aminoJson.js';
import { SignModeHandler } from '../sigverify.js';
import { consumeGasForTxSize, rejectExtensionOptions, setUpContext, txTimeoutHeight, validateBasic, validateMemo } from './basic.js';
import type { FeeGrantKeeper } from './expectedKeepers.js';
import { deductFee } from './fee.js';
import { AnteRouter } from './router.js';
import { incrementSequence, setPubKey, sigGasConsume, sigVerification, validateSigCount } from './signatures.js';
import type { AnteChain, AnteEnv, AnteEnvBase, AnteState, SignatureFallback } from './types.js';

export * from './basic.js';
export * from './expectedKeepers.js';
export * from './fee.js';
export * from './router.js';
export * from './signatures.js';
export * from './types.js';

export interface DefaultAnteChainOptions {
  /** Extension options the Cosmos chain accepts (default: none). */
  readonly allowExtensionOption?: (option: Any) => boolean;
}

/** The default chain, in order (see the file comment). */
export function defaultAnteChain(options: DefaultAnteChainOptions = {}): AnteChain {
  return [
    setUpContext,
    rejectExtensionOptions(options.allowExtensionOption),
    validateBasic,
    txTimeoutHeight,
    validateMemo,
    consumeGasForTxSize,
    deductFee,
    setPubKey,
    validateSigCount,
    sigGasConsume,
    sigVerification,
    incrementSequence,
  ];
}

/** The default chain with no extension options accepted. */
export const ANTE_DECORATORS: AnteChain = defaultAnteChain();

export interface AnteHandlerOptions {
  /** x/feegrant's keeper; until set, a fee granter is refused (18 "fee grants are not enabled"). */
  readonly feeGrantKeeper?: FeeGrantKeeper;
  /** Amino names of message types whose proto has no `(amino.name)`, by full proto name. */
  readonly aminoNameOverrides?: AminoJsonOptions['nameOverrides'];
  /** A module's second way for a signature to verify (the evm module's EIP-712). */
  readonly signatureFallback?: SignatureFallback;
}

/** The app's ante handler: the router over the chains, the sign modes and the fee-grant hook. */
export class AnteHandler {
  readonly router: AnteRouter;
  private signModes: SignModeHandler;
  private feeGrantKeeper: FeeGrantKeeper | undefined;
  private signatureFallback: SignatureFallback | undefined;

  constructor(options: AnteHandlerOptions = {}, defaultChain: AnteChain = ANTE_DECORATORS) {
    this.router = new AnteRouter(defaultChain);
    this.signModes = new SignModeHandler(new AminoJsonSigner({ nameOverrides: options.aminoNameOverrides }));
    this.feeGrantKeeper = options.feeGrantKeeper;
    this.signatureFallback = options.signatureFallback;
  }

  /** Replaces the fee-grant keeper and/or the amino name overrides (at app wiring time). */
  configure(options: AnteHandlerOptions): void {
    if (options.aminoNameOverrides !== undefined) this.signModes = new SignModeHandler(new AminoJsonSigner({ nameOverrides: options.aminoNameOverrides }));
    if (options.feeGrantKeeper !== undefined) this.feeGrantKeeper = options.feeGrantKeeper;
    if (options.signatureFallback !== undefined) this.signatureFallback = options.signatureFallback;
  }

  get signModeHandler(): SignModeHandler {
    return this.signModes;
  }

  /**
   * Runs the chain the router picks for `state.tx`: synchronously, unless a decorator returns a
   * promise — the rest of the chain then runs after it, and `run` returns the promise of the end.
   */
  run(state: AnteState, base: AnteEnvBase): void | Promise<void> {
    const env = { ...base, signModes: this.signModes, feeGrantKeeper: this.feeGrantKeeper, signatureFallback: this.signatureFallback };
    const chain = this.router.select(state.tx);
    for (let i = 0; i < chain.length; i++) {
      const pending = chain[i]!.handle(state, env);
      if (pending !== undefined) return continueAfter(pending, chain, i + 1, state, env);
    }
    return undefined;
  }
}

async function continueAfter(pending: Promise<void>, chain: AnteChain, from: number, state: AnteState, env: AnteEnv): Promise<void> {
  await pending;
  for (let i = from; i < chain.length; i++) await chain[i]!.handle(state, env);
}
