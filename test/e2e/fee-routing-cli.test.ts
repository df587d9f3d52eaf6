/**
 * The command line of the fee-routing records (bech32ibc) and the ICS-29 relayer fees (ibc-fee)
 * against a running node: the queries (records from genesis, the native prefix, an unknown prefix,
 * fee-enabled channels, a packet without fees), `tx gov submit-legacy-proposal update-hrp-ibc-record`
 * submitting its content, and bad input — one clear line, a non-zero exit, nothing written.
 */
import { jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cliOk as ok, runCli } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(240_000);

const FEE_FLAGS = ['--fees', '200000attotoken', '--yes', '-b', 'block', '-o', 'json'];

/** The error line's text (with -o json the CLI writes it as {"error": …}). */
function errorText(stderr: string): string {
  try {
    return String((JSON.parse(stderr) as { error: unknown }).error);
  } catch {
    return stderr;
  }
}

describe('bech32ibc and ibc-fee commands', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let n: string[];
  let kb: string[];

  const proposalCount = async (): Promise<number> => (JSON.parse(await ok(['q', 'gov', 'proposals', '-o', 'json', ...n])).proposals ?? []).length;

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-feeibc-');
    const h = ['--home', home];
    fastBlocks(home);
    const file = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(file, 'utf8'));
    // A transfer channel for the proposal to route over (its handshake is not this test's business).
    genesis.app_state.ibc.channel_genesis.channels = [
      { state: 'STATE_OPEN', ordering: 'ORDER_UNORDERED', counterparty: { port_id: 'transfer', channel_id: 'channel-4' }, connection_hops: ['connection-0'], version: 'ics20-1', port_id: 'transfer', channel_id: 'channel-1' },
    ];
    genesis.app_state.ibc.channel_genesis.next_channel_sequence = '2';
    genesis.app_state.bech32ibc.hrpIBCRecords = [{ hrp: 'cosmos', source_channel: 'channel-0', ics_to_height_offset: '100', ics_to_time_offset: '600s' }];
    Object.assign(genesis.app_state.gov.params, { min_deposit: [{ denom: 'attotoken', amount: '10000000' }] });
    writeFileSync(file, JSON.stringify(genesis, null, 2));
    await ok(['validate-genesis', ...h]);
    bg = await startOnFreePorts(home, 2);
    n = ['--node', bg.node];
    kb = ['--keyring-backend', 'test', '--home', home, ...n];
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('q bech32ibc: the native prefix, the records, one prefix\'s record', async () => {
    // Read-only queries, independent: run at once.
    const [native, records, one, missing, noArg] = await Promise.all([
      ok(['q', 'bech32ibc', 'native-hrp', '-o', 'json', ...n]),
      ok(['q', 'bech32ibc', 'hrp-ibc-records', '-o', 'json', ...n]),
      ok(['q', 'bech32ibc', 'hrp-source-channel', 'cosmos', '-o', 'json', ...n]),
      runCli(['q', 'bech32ibc', 'hrp-source-channel', 'osmo', ...n]),
      runCli(['q', 'bech32ibc', 'hrp-source-channel', ...n]),
    ]);
    expect(JSON.parse(native)).toEqual({ native_hrp: 'token' });
    const record = { hrp: 'cosmos', source_channel: 'channel-0', ics_to_height_offset: '100', ics_to_time_offset: '600s' };
    expect(JSON.parse(records)).toEqual({ hrp_ibc_records: [record] });
    expect(JSON.parse(one)).toEqual({ hrp_ibc_record: record });
    expect([missing.code, missing.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(missing.stderr).toContain('hrp record not found for osmo');
    expect(noArg.code).not.toBe(0);
    expect(noArg.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('q ibc-fee: channels, one channel, a packet without fees', async () => {
    // Read-only queries, independent: run at once.
    const [channels, channel, packets, packet, badSequence, payee] = await Promise.all([
      ok(['q', 'ibc-fee', 'channels', '-o', 'json', ...n]),
      ok(['q', 'ibc-fee', 'channel', 'transfer', 'channel-0', '-o', 'json', ...n]),
      ok(['q', 'ibc-fee', 'packets', '-o', 'json', ...n]),
      runCli(['q', 'ibc-fee', 'packet', 'transfer', 'channel-0', '1', ...n]),
      runCli(['q', 'ibc-fee', 'total-recv-fees', 'transfer', 'channel-0', '0', ...n]),
      runCli(['q', 'ibc-fee', 'payee', 'channel-0', 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2', ...n]),
    ]);
    expect(JSON.parse(channels)).toEqual({ fee_enabled_channels: [] });
    expect(JSON.parse(channel)).toEqual({ fee_enabled: false });
    expect(JSON.parse(packets)).toEqual({ incentivized_packets: [] });
    expect([packet.code, packet.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(packet.stderr).toContain('there is no fee escrowed for the given packetID');
    expect([badSequence.code, badSequence.stderr.trim().split('\n').length]).toEqual([2, 1]);
    expect(badSequence.stderr).toContain('invalid sequence "0"');
    expect([payee.code, payee.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(payee.stderr).toContain('payee address not found for address');
  });

  test('tx gov submit-legacy-proposal update-hrp-ibc-record submits the content; bad input writes nothing', async () => {
    const before = await proposalCount();
    const base = ['tx', 'gov', 'submit-legacy-proposal', 'update-hrp-ibc-record'];
    const flags = ['--title', 'Route osmo', '--description', 'Via channel-1', '--deposit', '10000000attotoken', '--from', 'alice', ...FEE_FLAGS, ...kb];
    const refused = async (args: string[], pattern: RegExp) => {
      const result = await runCli([...base, ...args, ...flags]);
      expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code: 2, lines: 1 });
      expect(errorText(result.stderr)).toMatch(pattern);
    };
    // Refused before signing (exit 2): run a few at a time.
    const cases: [string[], RegExp][] = [
      [['Osmo', 'channel-1', '--ics-to-height-offset', '10'], /invalid bech32 prefix "Osmo": string not all lowercase/],
      [['osmo', 'channel-1'], /at least one of offset height or offset timeout should be set/],
      [['osmo', 'chan/1', '--ics-to-height-offset', '10'], /invalid channel identifier "chan\/1"/],
      [['osmo', 'channel-1', '--ics-to-timeout-offset', 'soon'], /invalid --ics-to-timeout-offset "soon": expected a Go duration/],
      [['osmo', 'channel-1', '--ics-to-timeout-offset', '10'], /invalid --ics-to-timeout-offset "10": expected a Go duration/],
      [['osmo', 'channel-1', '--ics-to-timeout-offset', '-10m'], /invalid --ics-to-timeout-offset "-10m": the offset cannot be negative/],
      [['osmo', 'channel-1', '--ics-to-height-offset', 'ten'], /invalid --ics-to-height-offset "ten": expected a block count/],
      [['osmo', 'channel-1', '--ics-to-height-offset', '-5'], /invalid --ics-to-height-offset "-5": expected a block count/],
      [['osmo', 'channel-1', '--ics-to-height-offset', '18446744073709551616'], /invalid --ics-to-height-offset "18446744073709551616": expected a block count/],
      [['osmo'], /update-hrp-ibc-record needs a bech32 prefix and a channel/],
    ];
    for (let i = 0; i < cases.length; i += 4) await Promise.all(cases.slice(i, i + 4).map(([args, pattern]) => refused(args, pattern)));
    expect(await proposalCount()).toBe(before);
    // gov runs the content's handler when the proposal is submitted: an unknown channel is refused there.
    const unknown = await runCli([...base, 'osmo', 'channel-7', '--ics-to-height-offset', '10', ...flags]);
    expect([unknown.code, unknown.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(errorText(unknown.stderr)).toContain('channel not found: channel-7: Invalid IBC Data');
    expect(await proposalCount()).toBe(before);

    // The offset is carried to the nanosecond (a Go duration, not milliseconds).
    const generated = JSON.parse(await ok([...base, 'osmo', 'channel-1', '--ics-to-timeout-offset', '1h0.0000015s', '--generate-only', ...flags]));
    expect(generated.body.messages[0].content).toMatchObject({ ics_to_height_offset: '0', ics_to_time_offset: '3600.000001500s' });
    expect(await proposalCount()).toBe(before);

    const submitted = JSON.parse(await ok([...base, 'osmo', 'channel-1', '--ics-to-height-offset', '10', '--ics-to-timeout-offset', '10m', ...flags]));
    expect(submitted.code).toBe(0);
    const proposals = JSON.parse(await ok(['q', 'gov', 'proposals', '-o', 'json', ...n])).proposals;
    expect(proposals).toHaveLength(before + 1);
    const content = proposals.at(-1).messages[0].content;
    expect(content).toMatchObject({ '@type': '/bech32ibc.bech32ibc.v1beta1.UpdateHrpIbcChannelProposal', hrp: 'osmo', source_channel: 'channel-1', ics_to_height_offset: '10', ics_to_time_offset: '600s' });
  });

  test('tx ibc-fee pay-packet-fee: bad input in one line before signing; a channel without fees refused by the chain', async () => {
    const pay = (args: string[]) => runCli(['tx', 'ibc-fee', 'pay-packet-fee', ...args, '--from', 'alice', ...FEE_FLAGS, ...kb]);
    // Refused before signing (exit 2): run at once.
    await Promise.all(
      ([
        [['transfer', 'channel-0', '1'], /all fees are zero/],
        [['transfer', 'channel-0', 'x', '--recv-fee', '1attotoken'], /invalid sequence "x"/],
        [['transfer', 'channel-0', '1', '--recv-fee', 'ten'], /invalid --recv-fee "ten"/],
        [['t', 'channel-0', '1', '--recv-fee', '1attotoken'], /invalid port ID "t"/],
      ] as const).map(async ([args, pattern]) => {
        const result = await pay([...args]);
        expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code: 2, lines: 1 });
        expect(errorText(result.stderr)).toMatch(pattern);
      }),
    );
    const chain = await pay(['transfer', 'channel-0', '1', '--recv-fee', '1attotoken']);
    expect([chain.code, chain.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(chain.stderr).toMatch(/code 9 \(feeibc\).*fee module is not enabled for this channel/);
    expect(JSON.parse(await ok(['q', 'ibc-fee', 'packets', '-o', 'json', ...n]))).toEqual({ incentivized_packets: [] });
  });
});
