/** ethermint.evm.v1.Msg: EthereumTx (after the EVM ante chain) and the authority's UpdateParams. */
import { create } from '@bufbuild/protobuf';
import { Msg, MsgUpdateParamsResponseSchema } from '../../../gen/ethermint/evm/v1/tx_pb.js';
import { checkAuthority } from '../../platform/authority.js';
import { SdkErrors } from '../shared/errors.js';
import { msgRoute, type MsgRoute } from '../shared/module.js';
import { ethTxInfo } from './ante.js';
import type { EvmKeeper } from './keeper.js';
import { validateEvmParams } from './params.js';

export function evmMsgRoutes(keeper: EvmKeeper, authority: Uint8Array): MsgRoute[] {
  return [
    msgRoute(Msg.method.ethereumTx, async (ctx, msg) => {
      const info = ethTxInfo(msg);
      if (info === undefined) throw SdkErrors.InvalidRequest.wrap('MsgEthereumTx must be sent in a tx with the ExtensionOptionsEthereumTx extension option');
      return keeper.applyTransaction(ctx, info.tx, info.sender, info.cosmosTxHash);
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
