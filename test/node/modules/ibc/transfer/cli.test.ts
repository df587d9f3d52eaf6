/**
 * `tx ibc-transfer transfer`'s message building: ibc-go v6's relative timeouts (1000 blocks and
 * 10 minutes after the counterparty client's latest height and the later of the local clock and
 * its consensus time), trace-path denoms sent as their voucher, and bad input refused with one line
 * before anything is signed.
 */
import { buildMsgTransfer as buildChecked, checkTransferInput, type CounterpartyClientView, type TransferInput } from '../../../../../src/node/client/ibcTransfer.js';
import { newHeight } from '../../../../../src/node/modules/ibc/core/client/height.js';

const input = (over: Partial<TransferInput> = {}): TransferInput => ({
  sourcePort: 'transfer',
  sourceChannel: 'channel-0',
  receiver: 'cosmos1receiver',
  amount: '1000attotoken',
  timeoutHeight: '0-1000',
  timeoutTimestamp: '600000000000',
  absoluteTimeouts: false,
  memo: '',
  offline: false,
  ...over,
});
const view = { latestHeight: newHeight(1n, 50n), timestampNs: 2_000_000_000_000n };
const buildMsgTransfer = (i: TransferInput, v: CounterpartyClientView | undefined, nowNs: bigint) => buildChecked(checkTransferInput(i), 'token1sender', v, nowNs);

describe('tx ibc-transfer transfer', () => {
  test('relative timeouts are resolved against the counterparty client', () => {
    const msg = buildMsgTransfer(input(), view, 1_000_000_000_000n);
    expect([msg.timeoutHeight?.revisionNumber, msg.timeoutHeight?.revisionHeight, msg.timeoutTimestamp]).toEqual([1n, 1050n, 2_600_000_000_000n]);
    const later = buildMsgTransfer(input(), view, 3_000_000_000_000n);
    expect(later.timeoutTimestamp).toBe(3_600_000_000_000n);
    const noHeight = buildMsgTransfer(input({ timeoutHeight: '0-0' }), view, 0n);
    expect([noHeight.timeoutHeight?.revisionHeight, noHeight.token?.denom, noHeight.token?.amount, noHeight.sender]).toEqual([0n, 'attotoken', '1000', 'token1sender']);
  });

  test('offline, absolute timeouts are used as given', () => {
    const msg = buildMsgTransfer(input({ offline: true, absoluteTimeouts: true, timeoutHeight: '1-52000', timeoutTimestamp: '0' }), undefined, 0n);
    expect([msg.timeoutHeight?.revisionNumber, msg.timeoutHeight?.revisionHeight, msg.timeoutTimestamp]).toEqual([1n, 52000n, 0n]);
  });

  test('a trace path amount is sent as its voucher denom', () => {
    expect(buildMsgTransfer(input({ amount: '5transfer/channel-0/uatom' }), view, 0n).token?.denom).toBe('ibc/27394FB092D2ECCD56123C74F36E4C1F926001CEADA9CA97EA622B25F41E5EB2');
  });

  test.each([
    ['a zero amount', input({ amount: '0attotoken' }), 'the amount must be positive'],
    ['a malformed amount', input({ amount: 'lots' }), 'invalid amount "lots"'],
    ['an empty receiver', input({ receiver: ' ' }), 'the receiver address is empty'],
    ['both timeouts zero', input({ timeoutHeight: '0-0', timeoutTimestamp: '0' }), 'cannot both be 0'],
    ['a malformed height', input({ timeoutHeight: '1000' }), 'expected {revision}-{height}'],
    ['an absolute height already past', input({ absoluteTimeouts: true, timeoutHeight: '1-40', timeoutTimestamp: '0' }), 'has already passed on the counterparty'],
    ['an absolute timestamp already past', input({ absoluteTimeouts: true, timeoutHeight: '0-0', timeoutTimestamp: '1000' }), 'has already passed on the counterparty'],
    ['relative timeouts offline', input({ offline: true }), '--offline needs --absolute-timeouts'],
  ])('refuses %s with one line', (_name, bad, message) => {
    let error: unknown;
    try {
      buildMsgTransfer(bad, view, 0n);
    } catch (err) {
      error = err;
    }
    expect((error as Error).message).toContain(message);
    expect((error as Error).message).not.toContain('\n');
    expect((error as { exitCode?: number }).exitCode).toBe(2);
  });
});
