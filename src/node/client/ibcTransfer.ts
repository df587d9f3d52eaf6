/**
 * `tx ibc-transfer transfer`'s work, free of oclif (ibc-go v6 apps/transfer/client/cli/tx.go):
 * the amount's denom as this chain holds it (a trace path is turned into its `ibc/<hash>`), the
 * timeouts — by default relative, added to the latest height of the channel's counterparty
 * client and to the later of the local clock and that client's latest consensus time — and the
 * checks ibc-go would only make on chain: a positive amount, a receiver, not both timeouts zero,
 * an absolute timeout not already passed.
 */
import { create } from '@bufbuild/protobuf';
import { MsgTransferSchema, type MsgTransfer } from '../../gen/ibc/applications/transfer/v1/tx_pb.js';
import { CoinSchema } from '../../gen/cosmos/base/v1beta1/coin_pb.js';
import { HeightSchema, type Height } from '../../gen/ibc/core/client/v1/client_pb.js';
import { TokendError } from '../../util/errors.js';
import { ibcDenom, parseDenomTrace } from '../modules/ibc/apps/transfer/denom.js';
import type { RpcClient } from './rpc.js';

export interface TransferInput {
  sourcePort: string;
  sourceChannel: string;
  receiver: string;
  amount: string;
  sender: string;
  timeoutHeight: string;
  timeoutTimestamp: string;
  absoluteTimeouts: boolean;
  memo: string;
}

/** What the channel's counterparty client says: its latest height and that height's consensus time. */
export interface CounterpartyClientView {
  latestHeight: Height;
  timestampNs: bigint;
}

function bad(message: string, hint?: string): TokendError {
  return new TokendError('INVALID_ARGUMENT', message, { exitCode: 2, ...(hint === undefined ? {} : { hint }) });
}

/** `{revision}-{height}` (clienttypes.ParseHeight). */
export function parseTimeoutHeight(text: string): Height {
  const m = /^(\d+)-(\d+)$/.exec(text.trim());
  if (m === null) throw bad(`invalid --packet-timeout-height ${JSON.stringify(text)}: expected {revision}-{height}, e.g. 0-1000 (0-0 disables it)`);
  return create(HeightSchema, { revisionNumber: BigInt(m[1]!), revisionHeight: BigInt(m[2]!) });
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

/** RFC 3339 with up to nanoseconds → unix nanoseconds. */
export function rfc3339ToNanos(text: string): bigint {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/.exec(text);
  if (m === null) throw new TokendError('RPC_ERROR', `unexpected consensus state timestamp ${JSON.stringify(text)}`);
  const seconds = BigInt(Date.parse(`${m[1]}Z`) / 1000);
  return seconds * 1_000_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
}

/** The channel's counterparty client: its latest height and consensus time (QueryLatestConsensusState). */
export async function queryCounterpartyClient(rpc: RpcClient, portId: string, channelId: string): Promise<CounterpartyClientView> {
  const { queryMethod } = await import('./query.js');
  const { Query } = await import('../../gen/ibc/core/channel/v1/query_pb.js');
  const clientState = (await queryMethod(rpc, Query.method.channelClientState, { port_id: portId, channel_id: channelId })).value;
  const identified = clientState.identified_client_state as { client_state?: { latest_height?: { revision_number?: string; revision_height?: string } } } | undefined;
  const latest = identified?.client_state?.latest_height;
  if (latest === undefined) throw new TokendError('RPC_ERROR', `channel ${portId}/${channelId} has a client state without a latest height`);
  const latestHeight = create(HeightSchema, { revisionNumber: BigInt(latest.revision_number ?? '0'), revisionHeight: BigInt(latest.revision_height ?? '0') });
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
  return { latestHeight, timestampNs: rfc3339ToNanos(timestamp) };
}

function heightAfter(a: Height, b: Height): boolean {
  return a.revisionNumber > b.revisionNumber || (a.revisionNumber === b.revisionNumber && a.revisionHeight > b.revisionHeight);
}

/** What can be checked without the node: receiver, amount, timeouts (not both disabled). */
export function checkTransferInput(input: TransferInput): { token: { denom: string; amount: bigint }; timeoutHeight: Height; timeoutTimestamp: bigint } {
  if (input.receiver.trim() === '') throw bad('the receiver address is empty');
  const token = parseTransferAmount(input.amount);
  const timeoutHeight = parseTimeoutHeight(input.timeoutHeight);
  const timeoutTimestamp = parseTimestamp(input.timeoutTimestamp);
  if (timeoutHeight.revisionNumber === 0n && timeoutHeight.revisionHeight === 0n && timeoutTimestamp === 0n) {
    throw bad('the packet would never time out: --packet-timeout-height and --packet-timeout-timestamp cannot both be 0');
  }
  return { token, timeoutHeight, timeoutTimestamp };
}

/**
 * The MsgTransfer for `input`. `view` is the counterparty client (needed for relative timeouts,
 * and used to refuse absolute ones already past); `nowNs` is the local clock.
 */
export function buildMsgTransfer(input: TransferInput, view: CounterpartyClientView | undefined, nowNs: bigint): MsgTransfer {
  const checked = checkTransferInput(input);
  const token = checked.token;
  let { timeoutHeight, timeoutTimestamp } = checked;
  const heightSet = timeoutHeight.revisionNumber !== 0n || timeoutHeight.revisionHeight !== 0n;
  if (!input.absoluteTimeouts) {
    if (view === undefined) throw bad('relative timeouts need the node (the counterparty client is read from it)', 'give --absolute-timeouts with --offline');
    if (heightSet) {
      timeoutHeight = create(HeightSchema, {
        revisionNumber: view.latestHeight.revisionNumber + timeoutHeight.revisionNumber,
        revisionHeight: view.latestHeight.revisionHeight + timeoutHeight.revisionHeight,
      });
    }
    if (timeoutTimestamp !== 0n) timeoutTimestamp += nowNs > view.timestampNs ? nowNs : view.timestampNs;
  } else if (view !== undefined) {
    if (heightSet && !heightAfter(timeoutHeight, view.latestHeight)) {
      throw bad(
        `the timeout height ${timeoutHeight.revisionNumber}-${timeoutHeight.revisionHeight} has already passed on the counterparty (its client is at ${view.latestHeight.revisionNumber}-${view.latestHeight.revisionHeight})`,
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
    sender: input.sender,
    receiver: input.receiver,
    timeoutHeight,
    timeoutTimestamp,
    memo: input.memo,
  });
}
