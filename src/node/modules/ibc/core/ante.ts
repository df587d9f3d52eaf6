/**
 * ibc-go's RedundantRelayDecorator (v6 `modules/core/ante`): in CheckTx, ReCheckTx and simulate,
 * a tx made only of packet messages (RecvPacket, Acknowledgement, Timeout, TimeoutOnClose) and
 * client updates is executed in the ante handler, and refused with channel error 22 ("packet
 * messages are redundant") when every packet message in it is a no-op — another relayer got
 * there first — so a racing relayer learns it in CheckTx instead of paying for an empty tx in a
 * block. A tx with any other message is not looked at.
 *
 * - CheckTx / ReCheckTx: the messages run on the ante's own branch and gas meter (as in ibc-go),
 *   so the tx's gas limit bounds the work (messages do not run again in CheckTx); the writes are
 *   kept by the mempool's check state when the tx is accepted: a second tx relaying the same
 *   packets before the next block is then refused too.
 * - Simulate: on a discarded branch, so the messages then run in full and the simulated gas is
 *   what delivery will use (relayers size their fees from it).
 * - DeliverTx: nothing (a redundant packet message is a NOOP there, as before).
 */
import type { AnteDecorator } from '../../../app/ante/types.js';
import { ResponseResultType } from '../../../../gen/ibc/core/channel/v1/tx_pb.js';
import { InfiniteGasMeter } from '../../../store/gas.js';
import { EventManager } from '../../shared/events.js';
import type { MsgRoute } from '../../shared/module.js';
import { ChannelErrors } from './channel/errors.js';

const PACKET_MSGS = new Set([
  '/ibc.core.channel.v1.MsgRecvPacket',
  '/ibc.core.channel.v1.MsgAcknowledgement',
  '/ibc.core.channel.v1.MsgTimeout',
  '/ibc.core.channel.v1.MsgTimeoutOnClose',
]);
const UPDATE_CLIENT = '/ibc.core.client.v1.MsgUpdateClient';

/** The decorator over the ibc module's own Msg routes (the five message types above). */
export function redundantRelayDecorator(routes: readonly MsgRoute[]): AnteDecorator {
  const byType = new Map(routes.filter((r) => PACKET_MSGS.has(r.typeUrl) || r.typeUrl === UPDATE_CLIENT).map((r) => [r.typeUrl, r]));
  return {
    name: 'RedundantRelay',
    handle(state) {
      const { ctx, tx } = state;
      if (!ctx.isCheckTx && ctx.mode !== 'simulate') return undefined;
      let packets = 0;
      for (const msg of tx.msgs) {
        if (PACKET_MSGS.has(msg.typeUrl)) packets++;
        else if (msg.typeUrl !== UPDATE_CLIENT) return undefined;
      }
      if (packets === 0) return undefined;
      return (async () => {
        const branch = ctx.mode === 'simulate' ? ctx.multiStore.branch() : undefined;
        // Simulate's meter is unbounded already; a scratch one keeps the messages' gas out of the
        // simulated total, which the message phase then charges once.
        const run = branch === undefined ? ctx : ctx.with({ multiStore: branch, gasMeter: new InfiniteGasMeter(), metered: false });
        let redundant = 0;
        try {
          for (const msg of tx.msgs) {
            const route = byType.get(msg.typeUrl);
            if (route === undefined) return;
            const response = (await route.handler(run.with({ events: new EventManager() }), msg.message)) as { result?: ResponseResultType };
            if (PACKET_MSGS.has(msg.typeUrl) && response.result === ResponseResultType.NOOP) redundant++;
          }
        } finally {
          branch?.discard();
        }
        if (redundant === packets) throw ChannelErrors.RedundantTx.error();
      })();
    },
  };
}
