/** Decorators 1–6 of the default chain: context, extension options, basic checks, timeout, memo, size. */
import type { Any } from '@bufbuild/protobuf/wkt';
import { BasicGasMeter, InfiniteGasMeter } from '../../store/index.js';
import { coinsToString } from '../../modules/shared/coins.js';
import { SdkErrors } from '../../modules/shared/errors.js';
import type { AnteDecorator } from './types.js';

/** 2^63 − 1: the SDK's MaxGasWanted. */
export const MAX_GAS_WANTED = (1n << 63n) - 1n;
/** Bytes of an amino StdSignature{secp256k1 key, 64-byte sig} + 6: simulate's stand-in signature. */
export const SIMULATED_SIGNATURE_BYTES = 112;

/** 1. Gas meter = the tx's gas limit (infinite in simulate and at height 0); block max gas. */
export const setUpContext: AnteDecorator = {
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

/**
 * 2. Extension options: refused (31) unless `allow` accepts each of them (the SDK's
 * ExtensionOptionsDecorator with an ExtensionOptionChecker; Ethermint allows its DynamicFeeTx
 * option on the Cosmos chain). Txs of other kinds reach their own chain through the AnteRouter.
 */
export function rejectExtensionOptions(allow: (option: Any) => boolean = () => false): AnteDecorator {
  return {
    name: 'ExtensionOptions',
    handle(state) {
      for (const option of state.tx.extensionOptions) if (!allow(option)) throw SdkErrors.UnknownExtensionOptions.error();
    },
  };
}

/** 3. Stateless checks (skipped on ReCheck): gas bound, fee, signature count. */
export const validateBasic: AnteDecorator = {
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

/** 4. A tx past its timeout height is refused (30). */
export const txTimeoutHeight: AnteDecorator = {
  name: 'TxTimeoutHeight',
  handle(state) {
    const timeout = state.tx.timeoutHeight;
    if (timeout > 0n && BigInt(state.ctx.blockHeight) > timeout) {
      throw SdkErrors.TxTimeoutHeight.wrap(`block height: ${state.ctx.blockHeight}, timeout height: ${timeout}`);
    }
  },
};

/** 5. Memo length against max_memo_characters (12). */
export const validateMemo: AnteDecorator = {
  name: 'ValidateMemo',
  handle(state, env) {
    const max = env.accountKeeper.getParams(state.ctx).maxMemoCharacters;
    const length = BigInt(Buffer.byteLength(state.tx.memo, 'utf8'));
    if (length > max) throw SdkErrors.MemoTooLarge.wrap(`maximum number of characters is ${max} but received ${length} characters`);
  },
};

/** 6. Gas for the tx's size; simulate adds a signature's worth for each empty signature. */
export const consumeGasForTxSize: AnteDecorator = {
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
