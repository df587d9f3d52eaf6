/**
 * icamauth (aioz.icamauth.v1beta1, copied from Gaia v8 x/icamauth): the network's authentication
 * module over the interchain accounts controller's legacy API. It keeps no state and owns no
 * IBC callbacks: the controller claims the channel capabilities itself (ibc-go v6) and icamauth's
 * callbacks in Gaia did nothing else. REST: /aioz/icamauth/v1beta1/… and /net/icamauth/v1beta1/….
 */
import { Query } from '../../../gen/aioz/icamauth/v1beta1/query_pb.js';
import { Msg } from '../../../gen/aioz/icamauth/v1beta1/tx_pb.js';
import { defineModule } from '../../platform/module.js';
import { icamauthCli } from './cli.js';
import { IcamauthErrors } from './errors.js';
import type { IcamauthIcaKeeper } from './expectedKeepers.js';
import { IcamauthKeeper } from './keeper.js';
import { icamauthMsgRoutes } from './msgServer.js';
import { icamauthQueryService } from './queryServer.js';

export const icamauthModule = defineModule<IcamauthKeeper>({
  name: 'icamauth',
  msgService: Msg,
  queryServices: [Query],
  aminoNames: {
    'aioz.icamauth.v1beta1.MsgRegisterAccount': 'icamauth/MsgRegisterAccount',
    'aioz.icamauth.v1beta1.MsgSubmitTx': 'icamauth/MsgSubmitTx',
  },
  errors: IcamauthErrors,
  cli: icamauthCli,
  consensusVersion: 1,
  requires: ['interchainaccounts'],
  create(deps) {
    const keeper = new IcamauthKeeper(deps.keeper<IcamauthIcaKeeper>('interchainaccounts').controller);
    return {
      keeper,
      msgRoutes: icamauthMsgRoutes(keeper),
      queryServices: [icamauthQueryService(keeper)],
    };
  },
});
