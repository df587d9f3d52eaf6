/**
 * The EVM's hooks (Ethermint's EvmHooks): other modules observe each successful Ethereum
 * transaction after it ran — its sender, recipient and logs — and may change state in the same
 * message (netrc20 turns ERC-20 Transfers to its module address back into coins). An error from
 * a hook fails the message: the transaction's state changes are dropped (its fee stays paid).
 */
import type { Log } from '../../../gen/ethermint/evm/v1/evm_pb.js';
import type { Context } from '../shared/context.js';

export interface EvmHooks {
  postTxProcessing?(ctx: Context, sender: Uint8Array, to: Uint8Array | undefined, logs: readonly Log[]): Promise<void>;
}
