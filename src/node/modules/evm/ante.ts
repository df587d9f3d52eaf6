/**
 * The ante chain of Ethereum txs (a Cosmos tx whose first extension option is
 * `/ethermint.evm.v1.ExtensionOptionsEthereumTx`), in Ethermint v0.22's order and with its
 * error texts:
 *
 *   EthSetUpContext     gas meter infinite (the EVM meters itself); only MsgEthereumTx; no
 *                       Cosmos signatures; tx gas = the sum of the Ethereum gas limits
 *   EthMempoolFee       CheckTx: price ≥ the node's min gas price of the EVM denom
 *   EthValidateBasic    enable_create / enable_call; gas ≤ block max gas
 *   EthSigVerification  chain id, EIP-155 protection (allow_unprotected_txs), sender recovery,
 *                       `from` = the recovered sender
 *   EthAccountVerification + CanTransfer + GasConsume + IncrementSequence
 *                       no code at the sender (EIP-3607); fee cap ≥ base fee; price ≥
 *                       min_gas_price; balance ≥ gas × price + value; nonce = sequence; the fee
 *                       gas_limit × effective price goes to the fee collector; sequence + 1
 *
 * What the chain learned (the decoded tx, its sender) is handed to the Msg handler through
 * `ethTxInfo(msg)`; a MsgEthereumTx that did not come through this chain is refused there.
 */
import type { Message } from '@bufbuild/protobuf';
import { bytesToHex } from './hex.js';
import { InfiniteGasMeter } from '../../store/index.js';
import type { AnteChain, AnteDecorator, AnteInsertion, AnteState, PrecheckedSignature, SignaturePrecheck } from '../../app/ante/types.js';
import { ExtensionOptionsEthereumTxSchema } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import { coinsToString } from '../shared/coins.js';
import type { MsgEthereumTx } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import { FEE_COLLECTOR_NAME } from './keys.js';
import { SdkErrors } from '../shared/errors.js';
import { EvmErrors } from './errors.js';
import type { EthTx } from './ethTx.js';
import { evmLibraries } from './lib.js';
import { MSG_ETHEREUM_TX_URL } from './keys.js';
import type { EvmKeeper } from './keeper.js';
import type { EvmFeeMarketKeeper } from './expectedKeepers.js';
import { EMPTY_CODE_HASH } from './keys.js';

export interface EthTxInfo {
  readonly tx: EthTx;
  readonly sender: Uint8Array;
  readonly cosmosTxHash: string;
}

const infos = new WeakMap<object, EthTxInfo>();
const decodedTxs = new WeakMap<object, EthTx[]>();

/** The ante chain's findings for a MsgEthereumTx (undefined when it did not pass the EVM chain). */
export function ethTxInfo(msg: Message): EthTxInfo | undefined {
  return infos.get(msg);
}

function ethMsgs(state: AnteState): MsgEthereumTx[] {
  return state.tx.msgs.map((m) => m.message as MsgEthereumTx);
}

function decoded(state: AnteState): EthTx[] {
  const txs = decodedTxs.get(state.tx);
  if (txs === undefined) throw new Error('EVM ante chain: transactions not decoded');
  return txs;
}

export function evmAnteChain(keeper: EvmKeeper, feeMarket: () => EvmFeeMarketKeeper | undefined): AnteChain {
  // The evm params one run of the chain reads (EthValidateBasic, EthSigVerification,
  // EthAccountVerification): read once per run — per AnteState, never across CheckTx and the
  // block (a governance change between them is seen). The chain's context is unmetered
  // (EthSetUpContext), so reading once charges what reading three times did: nothing.
  const paramsOfRun = new WeakMap<AnteState, ReturnType<EvmKeeper['getParams']>>();
  const runParams = (state: AnteState): ReturnType<EvmKeeper['getParams']> => {
    let params = paramsOfRun.get(state);
    if (params === undefined) {
      params = keeper.getParams(state.ctx);
      paramsOfRun.set(state, params);
    }
    return params;
  };
  const setUp: AnteDecorator = {
    name: 'EthSetUpContext',
    handle(state) {
      state.ctx = state.ctx.with({ gasMeter: new InfiniteGasMeter(), metered: false });
      for (const msg of state.tx.msgs) {
        if (msg.typeUrl !== MSG_ETHEREUM_TX_URL) throw SdkErrors.UnknownRequest.wrap(`invalid message type ${msg.typeUrl}, expected ${MSG_ETHEREUM_TX_URL}`);
      }
      if (state.tx.signatures.length > 0 || state.tx.signerInfos.length > 0) throw SdkErrors.InvalidRequest.wrap('for eth tx AuthInfo SignerInfos should be empty');
      if (state.tx.memo !== '') throw SdkErrors.InvalidRequest.wrap('for eth tx Body Memo should be empty');
    },
  };

  const validate: AnteDecorator = {
    name: 'EthValidateBasic',
    handle(state, env) {
      const params = runParams(state);
      const { cachedTxFromMsg, commonFor } = evmLibraries();
      const common = commonFor(keeper.chainId(state.ctx, params), keeper.hardfork(state.ctx, params), params.extraEips.map(Number));
      const txs: EthTx[] = [];
      let totalGas = 0n;
      for (const msg of ethMsgs(state)) {
        const tx = cachedTxFromMsg(msg, common);
        if (tx.to === undefined && !params.enableCreate) throw EvmErrors.CreateDisabled.wrap('failed to create new contract');
        if (tx.to !== undefined && !params.enableCall) throw EvmErrors.CallDisabled.wrap('failed to call contract');
        totalGas += tx.gasLimit;
        txs.push(tx);
      }
      if (totalGas !== state.tx.gasLimit) throw SdkErrors.InvalidRequest.wrap(`invalid gas limit; got ${state.tx.gasLimit}, expected ${totalGas}`);
      if (env.maxBlockGas > 0n && totalGas > env.maxBlockGas) throw SdkErrors.OutOfGas.wrap(`tx gas (${totalGas}) exceeds block gas limit (${env.maxBlockGas})`);
      decodedTxs.set(state.tx, txs);
    },
  };

  const sigVerify: AnteDecorator = {
    name: 'EthSigVerification',
    handle(state) {
      const params = runParams(state);
      const msgs = ethMsgs(state);
      const { isProtected, cachedSender } = evmLibraries();
      decoded(state).forEach((tx, i) => {
        if (!params.allowUnprotectedTxs && !isProtected(tx)) {
          throw SdkErrors.NotSupported.wrap('rejected unprotected Ethereum transaction. Please EIP155 sign your transaction to protect it against replay-attacks');
        }
        const msg = msgs[i]!;
        let sender: Uint8Array;
        try {
          sender = cachedSender(msg, tx);
        } catch (err) {
          throw SdkErrors.InvalidSigner.wrap(`couldn't retrieve sender address from the ethereum transaction: ${err instanceof Error ? err.message.split(' (')[0] : String(err)}`);
        }
        if (msg.from !== '' && msg.from.toLowerCase() !== bytesToHex(sender)) {
          throw SdkErrors.InvalidSigner.wrap(`expected ${msg.from}, got ${bytesToHex(sender)}`);
        }
        infos.set(msg, { tx, sender, cosmosTxHash: state.tx.hashHex });
      });
    },
  };

  const accountAndFee: AnteDecorator = {
    name: 'EthAccountVerification',
    handle(state, env) {
      const ctx = state.ctx;
      const params = runParams(state);
      const baseFee = keeper.baseFee(ctx, params);
      const market = feeMarket();
      const minGasPrice = market?.getMinGasPrice(ctx) ?? { num: 0n, den: 1n };
      const { effectiveGasPrice, gasFeeCap } = evmLibraries();
      let priority: bigint | undefined;
      for (const msg of ethMsgs(state)) {
        const info = infos.get(msg)!;
        const { tx, sender } = info;
        let account = env.accountKeeper.getAccount(ctx, sender);
        if (account !== undefined && account.codeHash !== '' && account.codeHash !== EMPTY_CODE_HASH) {
          throw SdkErrors.InvalidType.wrap(`the sender is not EOA: address ${bytesToHex(sender)}, codeHash <${account.codeHash}>`);
        }
        if (baseFee !== undefined && gasFeeCap(tx) < baseFee) {
          throw SdkErrors.InsufficientFee.wrap(`max fee per gas less than block base fee (${gasFeeCap(tx)} < ${baseFee})`);
        }
        const price = effectiveGasPrice(tx, baseFee);
        if (minGasPrice.num > 0n && price * minGasPrice.den < minGasPrice.num) {
          const min = (minGasPrice.num + minGasPrice.den - 1n) / minGasPrice.den;
          throw SdkErrors.InsufficientFee.wrap(
            `provided fee < minimum global fee (${price * tx.gasLimit} < ${min * tx.gasLimit}). Please increase the priority tip (for EIP-1559 txs) or the gas prices (for access list or legacy txs)`,
          );
        }
        if (ctx.isCheckTx && !state.simulate) {
          const local = env.minGasPrices.find((c) => c.denom === params.evmDenom);
          if (local !== undefined && !isZeroDec(local.atto) && decLess(price, local.atto)) {
            throw SdkErrors.InsufficientFee.wrap(`insufficient fee; got: ${price * tx.gasLimit}${params.evmDenom} required: ${decCeilTimes(local.atto, tx.gasLimit)}${params.evmDenom}`);
          }
        }
        const fee = tx.gasLimit * price;
        const cost = tx.gasLimit * gasFeeCap(tx) + tx.value;
        const balance = keeper.bank.getBalance(ctx, sender, params.evmDenom);
        if (balance < cost) {
          throw SdkErrors.InsufficientFunds.wrap(`failed to check sender balance: sender balance < tx cost (${balance} < ${cost})`);
        }
        if (account === undefined) {
          account = keeper.accounts.newAccountWithAddress(ctx, sender);
          keeper.accounts.setAccount(ctx, account);
        }
        if (tx.nonce !== account.sequence) {
          throw SdkErrors.InvalidSequence.wrap(`invalid nonce; got ${tx.nonce}, expected ${account.sequence}`);
        }
        if (fee > 0n) env.bankKeeper.sendCoinsFromAccountToModule(ctx, sender, FEE_COLLECTOR_NAME, [{ denom: params.evmDenom, amount: fee }]);
        env.accountKeeper.updateAccount(ctx, account, { ...account, sequence: account.sequence + 1n });
        const tip = baseFee === undefined ? price : price - baseFee;
        if (priority === undefined || tip < priority) priority = tip;
      }
      state.priority = priority ?? 0n;
    },
  };

  const gasWanted: AnteDecorator = {
    name: 'GasWanted',
    handle(state) {
      const market = feeMarket();
      if (market === undefined || state.ctx.mode !== 'finalize') return;
      market.addGasWanted(state.ctx, decoded(state).reduce((sum, tx) => sum + tx.gasLimit, 0n));
    },
  };

  return [setUp, validate, sigVerify, accountAndFee, gasWanted];
}

const EXTENSION_OPTIONS_ETHEREUM_TX = `/${ExtensionOptionsEthereumTxSchema.typeName}`;

/**
 * The Ethereum sender recovery of EthSigVerification, done ahead of CheckTx on the app's worker
 * threads (App.precheckTx): for each MsgEthereumTx whose `from` is filled in, a job that passes
 * when the signature recovers to `from`; a pass memoises `from` as the sender of that message's
 * decoded tx (the object CheckTx and FinalizeBlock then share), so the ante chain does not
 * recover it again. Only a pure function of the tx is recorded: a tx whose job failed or never
 * ran is recovered inline, with the same result.
 */
export function evmSignaturePrecheck(keeper: EvmKeeper): SignaturePrecheck {
  return (ctx, tx) => {
    if (tx.extensionOptions[0]?.typeUrl !== EXTENSION_OPTIONS_ETHEREUM_TX) return [];
    const params = keeper.getParams(ctx);
    const { cachedTxFromMsg, commonFor, senderRecoveryJob, rememberSender, knownSender, hexToBytes } = evmLibraries();
    const common = commonFor(keeper.chainId(ctx, params), keeper.hardfork(ctx, params), params.extraEips.map(Number));
    const out: PrecheckedSignature[] = [];
    for (const { typeUrl, message } of tx.msgs) {
      if (typeUrl !== MSG_ETHEREUM_TX_URL) return [];
      const msg = message as MsgEthereumTx;
      if (!/^0x[0-9a-fA-F]{40}$/.test(msg.from)) continue;
      let ethTx: EthTx;
      let job;
      const claimed = hexToBytes(msg.from as `0x${string}`);
      try {
        ethTx = cachedTxFromMsg(msg, common);
        if (knownSender(ethTx) !== undefined) continue; // recovered already (eth_sendRawTransaction)
        job = senderRecoveryJob(ethTx, claimed);
      } catch {
        continue; // the ante chain reports it
      }
      out.push({ job, accept: () => rememberSender(msg, ethTx, claimed) });
    }
    return out;
  };
}

/**
 * What the EVM adds to the Cosmos ante chain (Ethermint's app/ante for SDK txs): the fee
 * market's global minimum gas price — fee ≥ ceil(min_gas_price × gas) in the EVM denom, in
 * CheckTx and DeliverTx alike (its params read in simulate too; the check skipped in simulate, for gentxs and when it is 0) — before the memo check, and
 * the tx's gas limit counted into the block's gas wanted at the end.
 */
export function evmCosmosDecorators(keeper: EvmKeeper, feeMarket: () => EvmFeeMarketKeeper | undefined): AnteInsertion[] {
  const minGasPrice: AnteDecorator = {
    name: 'MinGasPrice',
    handle(state) {
      const market = feeMarket();
      if (market === undefined) return;
      // The params are read (and their gas charged) before the simulate short-circuit, as
      // Ethermint does, so a simulation costs what the tx will.
      const { num, den } = market.getMinGasPrice(state.ctx);
      // Gentxs (height 0) are signed without fees before the chain exists: not held to it.
      if (num === 0n || state.simulate || state.ctx.blockHeight === 0) return;
      const denom = keeper.getParams(state.ctx).evmDenom;
      const required = (num * state.tx.gasLimit + den - 1n) / den;
      if (required <= 0n) return;
      const paid = state.tx.fee.find((coin) => coin.denom === denom)?.amount ?? 0n;
      if (paid < required) {
        throw SdkErrors.InsufficientFee.wrap(`provided fee < minimum global fee (${coinsToString(state.tx.fee)} < ${required}${denom}). Please increase the gas price.`);
      }
    },
  };
  // In every mode, as Ethermint's GasWantedDecorator: CheckTx and simulate add to their own
  // (discarded) branch, and pay the same gas for it as the delivered tx — else fee "auto"
  // (simulated gas × multiplier) under-estimates.
  const gasWanted: AnteDecorator = {
    name: 'GasWanted',
    handle(state) {
      const market = feeMarket();
      if (market === undefined) return;
      market.addGasWanted(state.ctx, state.tx.gasLimit);
    },
  };
  return [{ before: 'ValidateMemo', decorator: minGasPrice }, { decorator: gasWanted }];
}

// Min gas prices are DecCoins (18-decimal fixed point as bigint scaled by 10^18).
const DEC = 10n ** 18n;

function isZeroDec(amount: bigint): boolean {
  return amount === 0n;
}

function decLess(price: bigint, min: bigint): boolean {
  return price * DEC < min;
}

function decCeilTimes(min: bigint, gas: bigint): bigint {
  return (min * gas + DEC - 1n) / DEC;
}
