/**
 * bech32ibc (the fee-routing records, /feex/txfees/v1beta1): genesis (default native prefix, import,
 * validation, export), the three queries with upstream's errors, and UpdateHrpIbcChannelProposal
 * carried out through the content router — a record for a channel on the transfer port, an update,
 * removal by an empty channel, and refusals (unknown channel, channel on another port, bad prefix,
 * no offsets) that change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { create, toBinary, type DescMessage, type MessageShape } from '@bufbuild/protobuf';
import { UpdateHrpIbcChannelProposalSchema } from '../../../../src/gen/bech32ibc/bech32ibc/v1beta1/gov_pb.js';
import * as q from '../../../../src/gen/bech32ibc/bech32ibc/v1beta1/query_pb.js';
import { exportAppState } from '../../../../src/node/app/genesis.js';
import { anyPack } from '../../../../src/node/codec/index.js';
import { defaultBech32IbcGenesis, validateBech32IbcGenesis } from '../../../../src/node/modules/bech32ibc/genesis.js';
import { defaultIbcGenesis } from '../../../../src/node/modules/ibc/genesis.js';
import { Context, emptyHeader } from '../../../../src/node/modules/shared/context.js';
import { GENESIS_TIME, TOKEN, abciQuery, buildAppState, startChain, testKey, type Chain } from '../../app/helpers.js';

const key = testKey('router');
let chain: Chain;

const channel = (portId: string, channelId: string) => ({
  state: 'STATE_OPEN',
  ordering: 'ORDER_UNORDERED',
  counterparty: { port_id: portId, channel_id: 'channel-9' },
  connection_hops: ['connection-0'],
  version: 'ics20-1',
  port_id: portId,
  channel_id: channelId,
});

beforeAll(async () => {
  const ibc = defaultIbcGenesis() as Record<string, any>;
  ibc['channel_genesis'] = { ...ibc['channel_genesis'], channels: [channel('transfer', 'channel-0'), channel('transfer', 'channel-1'), channel('icahost', 'channel-2')], next_channel_sequence: '3' };
  const bech32ibc = { nativeHRP: 'token', hrpIBCRecords: [{ hrp: 'osmo', source_channel: 'channel-1', ics_to_height_offset: '100', ics_to_time_offset: '0s' }] };
  chain = await startChain({ ...buildAppState({ accounts: [[key, 1000n * TOKEN]], validator: key, selfDelegation: 100n * TOKEN }), ibc, bech32ibc });
  await chain.block([]);
});

afterAll(async () => {
  await chain?.close();
});

async function query<Req extends DescMessage, Res extends DescMessage>(method: string, req: Req, init: Record<string, unknown>, res: Res): Promise<{ code: number; codespace: string; log: string; value: MessageShape<Res> | undefined }> {
  const { response, value } = await abciQuery(chain.app, `/bech32ibc.bech32ibc.v1beta1.Query/${method}`, toBinary(req, create(req, init as never)), res);
  return { code: response.code, codespace: response.codespace, log: response.log, value };
}

const records = async () => (await query('HrpIbcRecords', q.QueryHrpIbcRecordsRequestSchema, {}, q.QueryHrpIbcRecordsResponseSchema)).value!.hrpIbcRecords.map((r) => [r.hrp, r.sourceChannel, r.icsToHeightOffset, r.icsToTimeOffset?.seconds ?? 0n]);

describe('bech32ibc genesis', () => {
  test('the default native prefix is this chain\'s account prefix, with no records', () => {
    expect(defaultBech32IbcGenesis()).toEqual({ nativeHRP: 'token', hrpIBCRecords: [] });
    expect(validateBech32IbcGenesis(defaultBech32IbcGenesis())).toEqual([]);
  });

  test('validation names each problem on its own line', () => {
    expect(validateBech32IbcGenesis({ nativeHRP: '', hrpIBCRecords: [] })).toEqual(['invalid native HRP "": empty HRP']);
    expect(validateBech32IbcGenesis({ nativeHRP: 'Token' })).toEqual(['invalid native HRP "Token": string not all lowercase']);
    expect(
      validateBech32IbcGenesis({
        nativeHRP: 'token',
        hrpIBCRecords: [
          { hrp: 'osmo', source_channel: 'channel-0' },
          { hrp: 'osmo', source_channel: 'channel-1' },
          { hrp: 'to ken', source_channel: 'channel-1' },
          { hrp: 'token', source_channel: 'channel-1' },
          { hrp: 'cosmos', source_channel: '' },
        ],
      }),
    ).toEqual([
      'hrp_ibc_record 1: duplicate record for HRP osmo',
      'hrp_ibc_record 2: invalid HRP "to ken": invalid character in string: \' \'',
      "hrp_ibc_record 3: cannot set a record for the chain's native prefix token",
      'hrp_ibc_record 4: empty source channel',
    ]);
    expect(validateBech32IbcGenesis({ nativeHRP: 7 } as never)[0]).toMatch(/^invalid bech32ibc genesis: /);
  });
});

describe('bech32ibc queries', () => {
  test('native prefix, every record, one record', async () => {
    expect((await query('NativeHrp', q.QueryNativeHrpRequestSchema, {}, q.QueryNativeHrpResponseSchema)).value!.nativeHrp).toBe('token');
    expect(await records()).toEqual([['osmo', 'channel-1', 100n, 0n]]);
    const one = await query('HrpIbcRecord', q.QueryHrpIbcRecordRequestSchema, { hrp: 'osmo' }, q.QueryHrpIbcRecordResponseSchema);
    expect(one.value!.hrpIbcRecord).toMatchObject({ hrp: 'osmo', sourceChannel: 'channel-1', icsToHeightOffset: 100n });
  });

  test('an unknown prefix answers ErrRecordNotFound (a registered error: gRPC Unknown, ABCI 6 as the SDK maps it)', async () => {
    const missing = await query('HrpIbcRecord', q.QueryHrpIbcRecordRequestSchema, { hrp: 'cosmos' }, q.QueryHrpIbcRecordResponseSchema);
    expect([missing.code, missing.codespace]).toEqual([6, 'sdk']);
    expect(missing.log).toBe('rpc error: code = Unknown desc = hrp record not found for cosmos: No record found for requested HRP: unknown request');
  });
});

describe('UpdateHrpIbcChannelProposal', () => {
  const proposal = (init: { hrp: string; sourceChannel: string; icsToHeightOffset?: bigint; seconds?: bigint }) =>
    anyPack(
      UpdateHrpIbcChannelProposalSchema,
      create(UpdateHrpIbcChannelProposalSchema, {
        title: 'route',
        description: 'route a prefix',
        hrp: init.hrp,
        sourceChannel: init.sourceChannel,
        icsToHeightOffset: init.icsToHeightOffset ?? 0n,
        icsToTimeOffset: { seconds: init.seconds ?? 0n, nanos: 0 },
      }),
    );

  test('sets, updates and removes records; refusals change nothing', async () => {
    const router = chain.app.manager.contentRouter;
    const branch = chain.store.branch();
    const ctx = new Context({ mode: 'block', multiStore: branch, header: emptyHeader(chain.app.currentChainId, chain.height + 1, new Date(GENESIS_TIME.getTime() + (chain.height + 1) * 1000)) });
    const stored = async () => {
      const list: [string, string, bigint, bigint][] = [];
      const keeper = chain.app.manager.keeper<{ getHrpIbcRecords(ctx: Context): Promise<{ hrp: string; sourceChannel: string; icsToHeightOffset: bigint; icsToTimeOffset?: { seconds: bigint } }[]> }>('bech32ibc');
      for (const r of await keeper.getHrpIbcRecords(ctx)) list.push([r.hrp, r.sourceChannel, r.icsToHeightOffset, r.icsToTimeOffset?.seconds ?? 0n]);
      return list;
    };

    await router.execute(ctx, proposal({ hrp: 'cosmos', sourceChannel: 'channel-0', seconds: 600n }));
    expect(await stored()).toEqual([['cosmos', 'channel-0', 0n, 600n], ['osmo', 'channel-1', 100n, 0n]]);
    await router.execute(ctx, proposal({ hrp: 'osmo', sourceChannel: 'channel-0', icsToHeightOffset: 5n }));
    expect(await stored()).toEqual([['cosmos', 'channel-0', 0n, 600n], ['osmo', 'channel-0', 5n, 0n]]);

    await expect(router.execute(ctx, proposal({ hrp: 'juno', sourceChannel: 'channel-7', icsToHeightOffset: 5n }))).rejects.toThrow('channel not found: channel-7: Invalid IBC Data');
    // channel-2 exists, but on the icahost port: records route over transfer only.
    await expect(router.execute(ctx, proposal({ hrp: 'juno', sourceChannel: 'channel-2', icsToHeightOffset: 5n }))).rejects.toThrow('channel not found: channel-2: Invalid IBC Data');
    await expect(router.execute(ctx, proposal({ hrp: '', sourceChannel: 'channel-0', icsToHeightOffset: 5n }))).rejects.toThrow('empty HRP: Invalid HRP');
    expect(await stored()).toEqual([['cosmos', 'channel-0', 0n, 600n], ['osmo', 'channel-0', 5n, 0n]]);

    await router.execute(ctx, proposal({ hrp: 'cosmos', sourceChannel: '', icsToHeightOffset: 1n }));
    expect(await stored()).toEqual([['osmo', 'channel-0', 5n, 0n]]);
    branch.discard();
  });

  test('ValidateBasic: an offset must be set and the prefix valid (at submission)', () => {
    const router = chain.app.manager.contentRouter;
    expect(() => router.validate(proposal({ hrp: 'cosmos', sourceChannel: 'channel-0' }))).toThrow('At least one of offset height or offset timeout should be set');
    expect(() => router.validate(proposal({ hrp: 'Cosmos', sourceChannel: 'channel-0', icsToHeightOffset: 1n }))).toThrow('string not all lowercase');
    expect(() => router.validate(proposal({ hrp: 'cosmos', sourceChannel: 'channel-0', seconds: 1n }))).not.toThrow();
  });
});

describe('bech32ibc export', () => {
  test('exports the native prefix and records, which validate and re-import to the same answer', async () => {
    const state = (await exportAppState(chain.store)) as Record<string, any>;
    expect(state['bech32ibc']).toEqual({ nativeHRP: 'token', hrpIBCRecords: [{ hrp: 'osmo', source_channel: 'channel-1', ics_to_height_offset: '100', ics_to_time_offset: '0s' }] });
    expect(validateBech32IbcGenesis(state['bech32ibc'])).toEqual([]);
  });
});
