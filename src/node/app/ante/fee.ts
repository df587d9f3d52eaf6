/** Decorator 7: DeductFee (x/auth/ante DeductFeeDecorator), with the fee-granter hook. */
import { FEE_COLLECTOR_NAME } from '../../modules/auth/keys.js';
import { ACCOUNT_PREFIX, accString, parseBech32 } from '../../modules/shared/address.js';
import { coinsToString, isAnyGTE, isValidCoins, isZeroCoins, isZeroDecCoins, requiredFees } from '../../modules/shared/coins.js';
import { SdkErrors, isSdkError, wrapError } from '../../modules/shared/errors.js';
import { ATTRIBUTE_KEY_FEE, ATTRIBUTE_KEY_FEE_PAYER, EVENT_TYPE_TX, newEvent } from '../../modules/shared/events.js';
import { bytesEqual } from '../../modules/shared/keys.js';
import type { DecodedTx } from '../tx.js';
import type { AnteDecorator } from './types.js';

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

/**
 * 7. Gas 0 → 41; minimum gas prices (CheckTx/ReCheck only) → 13; then the fee moves from the fee
 * payer (fee.payer, else the first signer) to the fee collector. With a fee granter, the
 * fee-grant keeper must allow the payer to spend the granter's allowance on these messages,
 * and the granter pays; without a fee-grant keeper a granter is refused (18 "fee grants are not
 * enabled"). Emits tx{fee, fee_payer} (fee_payer = whoever paid).
 */
export const deductFee: AnteDecorator = {
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
    const payer = tx.payer ?? tx.signers[0];
    if (payer === undefined) throw SdkErrors.UnknownAddress.wrap('fee payer address: empty does not exist');
    let deductFrom = payer;
    if (tx.granter !== '') {
      if (env.feeGrantKeeper === undefined) throw SdkErrors.InvalidRequest.wrap('fee grants are not enabled');
      const parsed = parseBech32(tx.granter, ACCOUNT_PREFIX);
      if (!parsed.ok) throw SdkErrors.InvalidAddress.wrap(`Invalid fee granter address (${parsed.error})`);
      const granter = parsed.bytes;
      if (!bytesEqual(granter, payer)) {
        try {
          env.feeGrantKeeper.useGrantedFees(ctx, granter, payer, tx.fee, tx.msgs);
        } catch (err) {
          throw wrapError(err, `${accString(granter)} does not allow to pay fees for ${accString(payer)}`);
        }
      }
      deductFrom = granter;
    }
    const payerAccount = env.accountKeeper.getAccount(ctx, deductFrom);
    if (payerAccount === undefined) throw SdkErrors.UnknownAddress.wrap(`fee payer address: ${accString(deductFrom)} does not exist`);
    if (!isZeroCoins(tx.fee)) {
      if (!isValidCoins(tx.fee)) throw SdkErrors.InsufficientFee.wrap(`invalid fee amount: ${coinsToString(tx.fee)}`);
      try {
        env.bankKeeper.sendCoinsFromAccountToModule(ctx, deductFrom, FEE_COLLECTOR_NAME, tx.fee);
      } catch (err) {
        // DeductFees wraps the bank error; running out of gas is a panic in the SDK, not wrapped.
        if (!isSdkError(err)) throw err;
        throw SdkErrors.InsufficientFunds.wrap(err.log);
      }
    }
    if (ctx.events.enabled) ctx.events.emit(newEvent(EVENT_TYPE_TX, [ATTRIBUTE_KEY_FEE, coinsToString(tx.fee)], [ATTRIBUTE_KEY_FEE_PAYER, accString(deductFrom)]));
  },
};
