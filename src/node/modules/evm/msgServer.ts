/** ethermint.evm.v1.Msg: EthereumTx (after the EVM ante chain) and the authority's UpdateParams. */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgUpdateParamsResponseSchema } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import { checkAuthority } from '../../platform/authority.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { ethTxInfo } from './ante.js';
import type { EvmHooks } from './hooks.js';
import type { EvmKeeper } from './keeper.js';
import { validateEvmParams } from './params.js';

export function evmMsgRoutes(keeper: EvmKeeper, authority: Uint8Array, hooks: () => EvmHooks = () => ({})): MsgRoute[] {
  return [
    msgRoute(Msg.method.ethereumTx, async (ctx, msg) => {
      const info = ethTxInfo(msg);
      if (info === undefined) throw SdkErrors.InvalidRequest.wrap('MsgEthereumTx must be sent in a tx with the ExtensionOptionsEthereumTx extension option');
      const response = await keeper.applyTransaction(ctx, info.tx, info.sender, info.cosmosTxHash);
      // Observers (EvmHooks) see each successful transaction's logs; their errors fail the message.
      if (response.vmError === '' && response.logs.length > 0) await hooks().postTxProcessing?.(ctx, info.sender, info.tx.to?.bytes, response.logs);
      return response;
    }),
    msgRoute(Msg.method.updateParams, (ctx, msg) => {
      checkAuthority(authority, msg.authority);
      if (msg.params === undefined) throw SdkErrors.InvalidRequest.wrap('params cannot be empty');
      const problems = validateEvmParams(msg.params);
      if (problems.length > 0) throw SdkErrors.InvalidRequest.wrap(problems.join('; '));
      keeper.setParams(ctx, msg.params);
      return create(MsgUpdateParamsResponseSchema);
    }),
  ];
}
