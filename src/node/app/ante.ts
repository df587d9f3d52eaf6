/**
 * The ante chain: the checks and charges every tx goes through before its messages run, in the
 * order of the SDK 0.50 ante handler (x/auth/ante NewAnteHandler), with Ethermint's signature
 * gas for eth_secp256k1 keys. Codes and log texts are the SDK's (COMPAT §3.3):
 *
 *   1  setUpContext        gas meter = gas_limit (infinite in simulate and at height 0);
 *                          gas_limit > block max gas → 11 "tx gas wanted X exceeds block max gas limit Y"
 *   2  extensionOptions    any extension option → 31
 *   3  validateBasic       (skipped on ReCheck) gas > 2^63-1 → 18; missing/negative fee → 13;
 *                          no signatures → 15; signatures ≠ signers → 4 "wrong number of signers…"
 *   4  txTimeoutHeight     height > timeout_height → 30 "block height: H, timeout height: T"
 *   5  validateMemo        memo bytes > max_memo_characters → 12
 *   6  consumeGasForTxSize tx_size_cost_per_byte × len(tx) ("txSize"); simulate adds a
 *                          signature's worth per empty signature
 *   7  deductFee           gas 0 → 41 (in practice the params read of step 5 runs out of gas
 *                          first: 11 "out of gas in location: ReadFlat; gasWanted: 0, …", as in
 *                          the SDK); min gas prices (CheckTx/ReCheck only) → 13 "insufficient fees;
 *                          got: F required: R"; granter → 18; payer unknown → 9; fee → fee_collector,
 *                          low balance → 5; emits the fee transfer events and tx{fee, fee_payer}
 *   8  setPubKey           stores signer-info keys on accounts; key/address mismatch → 8; emits
 *                          tx{acc_seq} and tx{signature} per signer
 *   9  validateSigCount    > tx_sig_limit keys → 14
 *  10  sigGasConsume       eth_secp256k1 21000, secp256k1 sig_verify_cost_secp256k1, ed25519 → 8
 *  11  sigVerification     no key → 8; sequence mismatch → 32 (also in simulate); bad signature
 *                          → 4 (skipped in simulate and ReCheck; reused from the verified cache)
 *  12  incrementSequence   +1 per signer
 *
 * Decorators mutate `AnteState` (the context gets its gas meter in step 1) and throw SdkErrors.
 */
import { BasicGasMeter, InfiniteGasMeter } from '../store/index.js';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import type { AccountKeeper } from '../modules/auth/keeper.js';
import { FEE_COLLECTOR_NAME } from '../modules/auth/keys.js';
import { pubKeyAddress, type Account, type PubKey } from '../modules/auth/account.js';
import type { BankKeeper } from '../modules/bank/keeper.js';
import { accString } from '../modules/shared/address.js';
import { coinsToString, isAnyGTE, isValidCoins, isZeroCoins, isZeroDecCoins, requiredFees, type DecCoin } from '../modules/shared/coins.js';
import type { Context } from '../modules/shared/context.js';
import { SdkErrors, isSdkError } from '../modules/shared/errors.js';
import { ATTRIBUTE_KEY_ACC_SEQ, ATTRIBUTE_KEY_FEE, ATTRIBUTE_KEY_FEE_PAYER, ATTRIBUTE_KEY_SIGNATURE, EVENT_TYPE_TX, newEvent } from '../modules/shared/events.js';
import { bytesEqual } from '../modules/shared/keys.js';
import { signDocBytes, type DecodedTx } from './tx.js';
import { signModeName, verifyWithPubKey, type VerifiedSignatureCache } from './sigverify.js';

/** 2^63 − 1: the SDK's MaxGasWanted. */
export const MAX_GAS_WANTED = (1n << 63n) - 1n;
/** Ethermint's gas for verifying an eth_secp256k1 signature. */
export const ETH_SECP256K1_VERIFY_COST = 21_000;
/** Bytes of an amino StdSignature{secp256k1 key, 64-byte sig} + 6: simulate's stand-in signature. */
export const SIMULATED_SIGNATURE_BYTES = 112;
/** The SDK's placeholder key for simulating signers without a key (simSecp256k1Pubkey). */
export const SIMULATION_PUBKEY: PubKey = {
  algo: 'secp256k1',
  key: Uint8Array.from(Buffer.from('035AD6810A47F073553FF30D2FCC7E0D3B1C0B74B61A1AAA2582344037151E143A', 'hex')),
  typeUrl: '/cosmos.crypto.secp256k1.PubKey',
};

/** Signatures of the block being finalized that worker threads verified ahead of execution. */
export interface PreverifiedSignatures {
  check(hash: Uint8Array, chainId: string, index: number, accountNumber: bigint, pubKey: PubKey): boolean;
  /** The block is done: stop the workers. */
  finish(): void;
}

export interface AnteEnv {
  readonly accountKeeper: AccountKeeper;
  readonly bankKeeper: BankKeeper;
  readonly minGasPrices: readonly DecCoin[];
  readonly sigCache: VerifiedSignatureCache;
  /** Block max gas from the consensus params (≤ 0: no limit). */
  readonly maxBlockGas: bigint;
  readonly preverified?: PreverifiedSignatures;
}

export interface AnteState {
  ctx: Context;
  readonly tx: DecodedTx;
  readonly simulate: boolean;
  /** Mempool priority (min fee per gas over the fee coins), set by deductFee. */
  priority: bigint;
}

export interface AnteDecorator {
  readonly name: string;
  handle(state: AnteState, env: AnteEnv): void;
}

function signerAccount(state: AnteState, env: AnteEnv, address: Uint8Array): Account {
  const account = env.accountKeeper.getAccount(state.ctx, address);
  if (account === undefined) throw SdkErrors.UnknownAddress.wrap(`account ${accString(address)} does not exist`);
  return account;
}

const setUpContext: AnteDecorator = {
  name: 'SetUpContext',
  handle(state, env) {
    const { tx, ctx } = state;
    const meter = state.simulate || ctx.blockHeight === 0 ? new InfiniteGasMeter() : BasicGasMeter.fromLimit(tx.gasLimit);
    state.ctx = ctx.with({ gasMeter: meter });
    if (env.maxBlockGas > 0n && tx.gasLimit > env.maxBlockGas) {
      throw SdkErrors.OutOfGas.wrap(`tx gas wanted ${tx.gasLimit} exceeds block max gas limit ${env.maxBlockGas}`);
    }
  },
};

const extensionOptions: AnteDecorator = {
  name: 'ExtensionOptions',
  handle(state) {
    if (state.tx.extensionOptions.length > 0) throw SdkErrors.UnknownExtensionOptions.error();
  },
};

const validateBasic: AnteDecorator = {
  name: 'ValidateBasic',
  handle(state) {
    if (state.ctx.isReCheckTx) return;
    const { tx } = state;
    if (!tx.hasFee) throw new Error('missing fee');
    if (tx.gasLimit > MAX_GAS_WANTED) throw SdkErrors.InvalidRequest.wrap(`invalid gas supplied; ${tx.gasLimit} > ${MAX_GAS_WANTED}`);
    if (tx.fee.some((coin) => coin.amount < 0n)) throw SdkErrors.InsufficientFee.wrap(`invalid fee provided: ${coinsToString(tx.fee)}`);
    if (tx.signatures.length === 0) throw SdkErrors.NoSignatures.error();
    if (tx.signatures.length !== tx.signers.length) {
      throw SdkErrors.Unauthorized.wrap(`wrong number of signers; expected ${tx.signers.length}, got ${tx.signatures.length}`);
    }
    if (tx.signerInfos.length !== tx.signers.length) {
      throw SdkErrors.Unauthorized.wrap(`wrong number of signer infos; expected ${tx.signers.length}, got ${tx.signerInfos.length}`);
    }
  },
};

const txTimeoutHeight: AnteDecorator = {
  name: 'TxTimeoutHeight',
  handle(state) {
    const timeout = state.tx.timeoutHeight;
    if (timeout > 0n && BigInt(state.ctx.blockHeight) > timeout) {
      throw SdkErrors.TxTimeoutHeight.wrap(`block height: ${state.ctx.blockHeight}, timeout height: ${timeout}`);
    }
  },
};

const validateMemo: AnteDecorator = {
  name: 'ValidateMemo',
  handle(state, env) {
    const max = env.accountKeeper.getParams(state.ctx).maxMemoCharacters;
    const length = BigInt(Buffer.byteLength(state.tx.memo, 'utf8'));
    if (length > max) throw SdkErrors.MemoTooLarge.wrap(`maximum number of characters is ${max} but received ${length} characters`);
  },
};

const consumeGasForTxSize: AnteDecorator = {
  name: 'ConsumeGasForTxSize',
  handle(state, env) {
    const { ctx, tx } = state;
    const costPerByte = Number(env.accountKeeper.getParams(ctx).txSizeCostPerByte);
    ctx.gasMeter.consumeGas(costPerByte * tx.bytes.length, 'txSize');
    if (state.simulate) {
      tx.signers.forEach((_signer, i) => {
        const signature = tx.signatures[i];
        if (signature !== undefined && signature.length > 0) return;
        ctx.gasMeter.consumeGas(costPerByte * SIMULATED_SIGNATURE_BYTES, 'txSize');
      });
    }
  },
};

const deductFee: AnteDecorator = {
  name: 'DeductFee',
  handle(state, env) {
    const { ctx, tx } = state;
    if (!state.simulate && ctx.blockHeight > 0 && tx.gasLimit === 0n) throw SdkErrors.InvalidGasLimit.wrap('must provide positive gas');
    if (!state.simulate) {
      // checkTxFeeWithValidatorMinGasPrices
      if (ctx.isCheckTx && !isZeroDecCoins(env.minGasPrices)) {
        const required = requiredFees(env.minGasPrices, tx.gasLimit);
        if (!isAnyGTE(tx.fee, required)) {
          throw SdkErrors.InsufficientFee.wrap(`insufficient fees; got: ${coinsToString(tx.fee)} required: ${coinsToString(required)}`);
        }
      }
      state.priority = txPriority(tx);
    }
    if (env.accountKeeper.getModuleAddress(FEE_COLLECTOR_NAME) === undefined) throw new Error(`fee collector module account (${FEE_COLLECTOR_NAME}) has not been set`);
    if (tx.granter !== '') throw SdkErrors.InvalidRequest.wrap('fee grants are not enabled');
    const payer = tx.payer ?? tx.signers[0];
    if (payer === undefined) throw SdkErrors.UnknownAddress.wrap('fee payer address: empty does not exist');
    const payerAccount = env.accountKeeper.getAccount(ctx, payer);
    if (payerAccount === undefined) throw SdkErrors.UnknownAddress.wrap(`fee payer address: ${accString(payer)} does not exist`);
    if (!isZeroCoins(tx.fee)) {
      if (!isValidCoins(tx.fee)) throw SdkErrors.InsufficientFee.wrap(`invalid fee amount: ${coinsToString(tx.fee)}`);
      try {
        env.bankKeeper.sendCoinsFromAccountToModule(ctx, payer, FEE_COLLECTOR_NAME, tx.fee);
      } catch (err) {
        // DeductFees wraps the bank error; running out of gas is a panic in the SDK, not wrapped.
        if (!isSdkError(err)) throw err;
        throw SdkErrors.InsufficientFunds.wrap(err.log);
      }
    }
    ctx.events.emit(newEvent(EVENT_TYPE_TX, [ATTRIBUTE_KEY_FEE, coinsToString(tx.fee)], [ATTRIBUTE_KEY_FEE_PAYER, accString(payer)]));
  },
};

/** getTxPriority: the smallest fee-per-gas over the fee coins (0 without fee or gas). */
export function txPriority(tx: DecodedTx): bigint {
  let priority: bigint | undefined;
  for (const coin of tx.fee) {
    const perGas = tx.gasLimit === 0n ? 0n : coin.amount / tx.gasLimit;
    if (priority === undefined || perGas < priority) priority = perGas;
  }
  const max = (1n << 63n) - 1n;
  return priority === undefined ? 0n : priority > max ? max : priority;
}

const setPubKey: AnteDecorator = {
  name: 'SetPubKey',
  handle(state, env) {
    const { ctx, tx } = state;
    tx.signerInfos.forEach((info, i) => {
      let pubKey = info.pubKey;
      if (pubKey === undefined) {
        if (!state.simulate) return;
        pubKey = SIMULATION_PUBKEY;
      }
      const signer = tx.signers[i]!;
      if (!state.simulate) {
        const derived = pubKeyAddress(pubKey);
        if (derived === undefined || !bytesEqual(derived, signer)) {
          throw SdkErrors.InvalidPubKey.wrap(`pubKey does not match signer address ${accString(signer)} with signer index: ${i}`);
        }
      }
      const account = signerAccount(state, env, signer);
      if (account.pubKey !== undefined) return;
      env.accountKeeper.updateAccount(ctx, account, { ...account, pubKey });
    });
    tx.signerInfos.forEach((info, i) => {
      const signer = tx.signers[i];
      ctx.events.emit(newEvent(EVENT_TYPE_TX, [ATTRIBUTE_KEY_ACC_SEQ, `${signer === undefined ? '' : accString(signer)}/${info.sequence}`]));
      const signature = tx.signatures[i] ?? new Uint8Array(0);
      ctx.events.emit(newEvent(EVENT_TYPE_TX, [ATTRIBUTE_KEY_SIGNATURE, Buffer.from(signature).toString('base64')]));
    });
  },
};

const validateSigCount: AnteDecorator = {
  name: 'ValidateSigCount',
  handle(state, env) {
    const limit = env.accountKeeper.getParams(state.ctx).txSigLimit;
    let count = 0n;
    for (const info of state.tx.signerInfos) if (info.pubKey !== undefined) count += 1n;
    if (count > limit) throw SdkErrors.TooManySignatures.wrap(`signatures: ${count}, limit: ${limit}`);
  },
};

const sigGasConsume: AnteDecorator = {
  name: 'SigGasConsume',
  handle(state, env) {
    const { ctx, tx } = state;
    const params = env.accountKeeper.getParams(ctx);
    tx.signers.forEach((signer) => {
      const account = signerAccount(state, env, signer);
      const pubKey = account.pubKey ?? (state.simulate ? SIMULATION_PUBKEY : undefined);
      switch (pubKey?.algo) {
        case 'eth_secp256k1':
          ctx.gasMeter.consumeGas(ETH_SECP256K1_VERIFY_COST, 'ante verify: eth_secp256k1');
          return;
        case 'secp256k1':
          ctx.gasMeter.consumeGas(Number(params.sigVerifyCostSecp256k1), 'ante verify: secp256k1');
          return;
        case 'ed25519':
          ctx.gasMeter.consumeGas(Number(params.sigVerifyCostEd25519), 'ante verify: ed25519');
          throw SdkErrors.InvalidPubKey.wrap('ED25519 public keys are unsupported');
        case 'multisig':
          throw SdkErrors.InvalidPubKey.wrap('multisig public keys are not supported');
        default:
          throw SdkErrors.InvalidPubKey.wrap('unrecognized public key type: <nil>');
      }
    });
  },
};

const sigVerification: AnteDecorator = {
  name: 'SigVerification',
  handle(state, env) {
    const { ctx, tx } = state;
    const genesis = ctx.blockHeight === 0;
    tx.signers.forEach((signer, i) => {
      const account = signerAccount(state, env, signer);
      const pubKey = account.pubKey;
      if (!state.simulate && pubKey === undefined) throw SdkErrors.InvalidPubKey.wrap('pubkey on account is not set');
      const info = tx.signerInfos[i]!;
      if (info.sequence !== account.sequence) {
        throw SdkErrors.WrongSequence.wrap(`account sequence mismatch, expected ${account.sequence}, got ${info.sequence}`);
      }
      if (state.simulate || ctx.isReCheckTx || pubKey === undefined) return;
      const accountNumber = genesis ? 0n : account.accountNumber;
      if (env.sigCache.has(tx.hash, ctx.chainId, i, accountNumber, pubKey)) return;
      if (env.preverified?.check(tx.hash, ctx.chainId, i, accountNumber, pubKey) === true) return;
      const failure = (reason: string): Error =>
        SdkErrors.Unauthorized.wrap(`signature verification failed; please verify account number (${accountNumber}) and chain-id (${ctx.chainId}): (${reason})`);
      if (info.signMode !== SignMode.DIRECT) throw failure(`unsupported sign mode ${signModeName(info.signMode)}`);
      const signBytes = signDocBytes(tx.bodyBytes, tx.authInfoBytes, ctx.chainId, accountNumber);
      if (!verifyWithPubKey(pubKey, signBytes, tx.signatures[i] ?? new Uint8Array(0))) throw failure('unable to verify single signer signature');
      // Remember CheckTx successes for FinalizeBlock; a finalized tx will not come again.
      if (ctx.mode === 'check') env.sigCache.add(tx.hash, ctx.chainId, i, { accountNumber, pubKey });
    });
  },
};

const incrementSequence: AnteDecorator = {
  name: 'IncrementSequence',
  handle(state, env) {
    for (const signer of state.tx.signers) {
      const account = signerAccount(state, env, signer);
      env.accountKeeper.updateAccount(state.ctx, account, { ...account, sequence: account.sequence + 1n });
    }
  },
};

/** The ante chain, in order. */
export const ANTE_DECORATORS: readonly AnteDecorator[] = [
  setUpContext,
  extensionOptions,
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

export function runAnteChain(state: AnteState, env: AnteEnv, decorators: readonly AnteDecorator[] = ANTE_DECORATORS): void {
  for (const decorator of decorators) decorator.handle(state, env);
}
