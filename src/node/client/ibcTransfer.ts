/**
 * `tx ibc-transfer transfer`'s work, free of oclif (ibc-go v6 apps/transfer/client/cli/tx.go):
 * the amount's denom as this chain holds it (a trace path is turned into its `ibc/<hash>`), the
 * timeouts — by default relative, added to the latest height of the channel's counterparty
 * client and to the later of the local clock and that client's latest consensus time — and the
 * checks ibc-go would only make on chain: a positive amount, a receiver, not both timeouts zero,
 * an absolute timeout not already passed. Relative timeouts need the counterparty client, which is
 * read from the node, so `--offline` requires `--absolute-timeouts` (as ibc-go's CLI, whose
 * relative timeouts query the node).
 */
import { create } from '@bufbuild/protobuf';
import { MsgTransferSchema, type MsgTransfer } from '../../gen/ibc/applications/transfer/v1/tx_pb.js';
import { CoinSchema } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { TokendError } from '../../util/errors.js';
import { parseRfc3339 } from '../consensus/types/time.js';
import { compareHeights, formatHeight, isZeroHeight, newHeight, parseHeight, type Height } from '../modules/ibc/core/client/height.js';
import { ibcDenom, parseDenomTrace } from '../modules/ibc/apps/transfer/denom.js';
import type { RpcClient } from './rpc.js';

export interface TransferInput {
  sourcePort: string;
  sourceChannel: string;
  receiver: string;
  amount: string;
  timeoutHeight: string;
  timeoutTimestamp: string;
  absoluteTimeouts: boolean;
  memo: string;
  /** Signed without contacting the node (--offline): only absolute timeouts can be resolved. */
  offline: boolean;
}

/** Input that passed `checkTransferInput`, with its amount and timeouts parsed. */
export interface CheckedTransfer {
  readonly input: TransferInput;
  readonly token: { denom: string; amount: bigint };
  readonly timeoutHeight: Height;
  readonly timeoutTimestamp: bigint;
}

/** What the channel's counterparty client says: its latest height and that height's consensus time. */
export interface CounterpartyClientView {
  latestHeight: Height;
  timestampNs: bigint;
}

function bad(message: string, hint?: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', message, { exitCode: 2, ...(hint === undefined ? {} : { hint }) });
}

/** `{revision}-{height}` (02-client's parseHeight), refused in the flag's words. */
function parseTimeoutHeight(text: string): Height {
  try {
    return parseHeight(text.trim());
  } catch {
    throw bad(`invalid --packet-timeout-height ${JSON.stringify(text)}: expected {revision}-{height}, e.g. 0-1000 (0-0 disables it)`);
  }
}

function parseTimestamp(text: string): bigint {
  if (!/^\d+$/.test(text.trim())) throw bad(`invalid --packet-timeout-timestamp ${JSON.stringify(text)}: expected nanoseconds as a whole number (0 disables it)`);
  const value = BigInt(text.trim());
  if (value >= 1n << 64n) throw bad(`--packet-timeout-timestamp ${text} does not fit 64 bits`);
  return value;
}

/** One coin "<amount><denom>", amount > 0; a trace path denom becomes its voucher denom. */
export function parseTransferAmount(text: string): { denom: string; amount: bigint } {
  const m = /^\s*(\d+)\s*([a-zA-Z][a-zA-Z0-9/:._-]{2,127})\s*$/.exec(text);
  if (m === null) throw bad(`invalid amount ${JSON.stringify(text)}: expected one coin such as 1000attotoken`);
  const amount = BigInt(m[1]!);
  if (amount === 0n) throw bad(`invalid amount ${text}: the amount must be positive`);
  const denom = m[2]!.startsWith('ibc/') ? m[2]! : ibcDenom(parseDenomTrace(m[2]!));
  return { denom, amount };
}

/** The channel's counterparty client: its latest height and consensus time (QueryLatestConsensusState). */
export async function queryCounterpartyClient(rpc: RpcClient, portId: string, channelId: string): Promise<CounterpartyClientView> {
  const { queryMethod } = await import('./query.js');
  const { Query } = await import('../../gen/ibc/core/channel/v1/query_pb.js');
  const clientState = (await queryMethod(rpc, Query.method.channelClientState, { port_id: portId, channel_id: channelId })).value;
  const identified = clientState.identified_client_state as { client_state?: { latest_height?: { revision_number?: string; revision_height?: string } } } | undefined;
  const latest = identified?.client_state?.latest_height;
  if (latest === undefined) throw new TokendError('RPC_ERROR', `channel ${portId}/${channelId} has a client state without a latest height`);
  const latestHeight = newHeight(BigInt(latest.revision_number ?? '0'), BigInt(latest.revision_height ?? '0'));
  const consensus = (
    await queryMethod(rpc, Query.method.channelConsensusState, {
      port_id: portId,
      channel_id: channelId,
      revision_number: latestHeight.revisionNumber.toString(),
      revision_height: latestHeight.revisionHeight.toString(),
    })
  ).value;
  const timestamp = (consensus.consensus_state as { timestamp?: string } | undefined)?.timestamp;
  if (timestamp === undefined) throw new TokendError('RPC_ERROR', `channel ${portId}/${channelId}: the client's consensus state has no timestamp`);
  const time = parseRfc3339(timestamp);
  if (time === undefined) throw new TokendError('RPC_ERROR', `channel ${portId}/${channelId}: unexpected consensus state timestamp ${JSON.stringify(timestamp)}`);
  return { latestHeight, timestampNs: BigInt(time.seconds) * 1_000_000_000n + BigInt(time.nanos) };
}

/**
 * What can be checked without the node, before the keyring is opened: receiver, amount, timeouts
 * (not both disabled), and absolute timeouts when offline.
 */
export function checkTransferInput(input: TransferInput): CheckedTransfer {
  if (input.offline && !input.absoluteTimeouts) {
    throw bad(
      "--offline needs --absolute-timeouts: relative timeouts are added to the counterparty client's latest height and time, which only the node can tell",
      'give the timeouts as absolute values with --absolute-timeouts, or drop --offline',
    );
  }
  if (input.receiver.trim() === '') throw bad('the receiver address is empty');
  const token = parseTransferAmount(input.amount);
  const timeoutHeight = parseTimeoutHeight(input.timeoutHeight);
  const timeoutTimestamp = parseTimestamp(input.timeoutTimestamp);
  if (isZeroHeight(timeoutHeight) && timeoutTimestamp === 0n) {
    throw bad('the packet would never time out: --packet-timeout-height and --packet-timeout-timestamp cannot both be 0');
  }
  return { input, token, timeoutHeight, timeoutTimestamp };
}

/**
 * The MsgTransfer from `sender` for checked input. `view` is the counterparty client (needed for
 * relative timeouts, and used to refuse absolute ones already past); `nowNs` is the local clock.
 */
export function buildMsgTransfer(checked: CheckedTransfer, sender: string, view: CounterpartyClientView | undefined, nowNs: bigint): MsgTransfer {
  const { input, token } = checked;
  let { timeoutHeight, timeoutTimestamp } = checked;
  const heightSet = !isZeroHeight(timeoutHeight);
  if (!input.absoluteTimeouts) {
    if (view === undefined) throw bad('relative timeouts need the counterparty client, read from the node', 'give --absolute-timeouts');
    if (heightSet) timeoutHeight = newHeight(view.latestHeight.revisionNumber + timeoutHeight.revisionNumber, view.latestHeight.revisionHeight + timeoutHeight.revisionHeight);
    if (timeoutTimestamp !== 0n) timeoutTimestamp += nowNs > view.timestampNs ? nowNs : view.timestampNs;
  } else if (view !== undefined) {
    if (heightSet && compareHeights(timeoutHeight, view.latestHeight) <= 0) {
      throw bad(
        `the timeout height ${formatHeight(timeoutHeight)} has already passed on the counterparty (its client is at ${formatHeight(view.latestHeight)})`,
        'give a later height, or drop --absolute-timeouts to give it relative to the counterparty',
      );
    }
    if (timeoutTimestamp !== 0n && timeoutTimestamp <= view.timestampNs) {
      throw bad(`the timeout timestamp ${timeoutTimestamp} has already passed on the counterparty (its latest consensus time is ${view.timestampNs})`, 'give a later time in unix nanoseconds, or drop --absolute-timeouts');
    }
  }
  return create(MsgTransferSchema, {
    sourcePort: input.sourcePort,
    sourceChannel: input.sourceChannel,
    token: create(CoinSchema, { denom: token.denom, amount: token.amount.toString() }),
    sender,
    receiver: input.receiver,
    timeoutHeight,
    timeoutTimestamp,
    memo: input.memo,
  });
}
