/**
 * The platform inside the real app: a probe module added to the app's module list sees the
 * block context (last-commit votes, misbehaviour, header) in its hooks, runs in the declared
 * order, hands consensus-param updates to the engine through EndBlock, and executes a
 * MsgUpdateParams through the message router with the gov authority — which a plain account
 * signing the same message in a tx cannot do.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { ParamsSchema as BankParamsSchema } from '../../../src/gen/cosmos/bank/v1beta1/bank_pb.js';
import { QueryParamsRequestSchema, QueryParamsResponseSchema } from '../../../src/gen/cosmos/bank/v1beta1/query_pb.js';
import { MsgUpdateParamsSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import type { ConsensusParams, Misbehavior, VoteInfo } from '../../../src/node/abci/types.js';
import { APP_MODULES, MODULE_ORDERS } from '../../../src/node/app/modules.js';
import { defaultConsensusParams } from '../../../src/node/consensus/types/params.js';
import { accString } from '../../../src/node/modules/shared/address.js';
import { defineModule, type ModuleDeps } from '../../../src/node/platform/module.js';
import { CHAIN_ID, TOKEN, abciQuery, buildAppState, pack, signTx, startChain, testKey, type Chain } from '../app/helpers.js';

const alice = testKey('alice');
const validator = testKey('validator');

interface Seen {
  hook: string;
  height: number;
  votes: VoteInfo[];
  misbehavior: Misbehavior[];
}

const seen: Seen[] = [];
let nextParams: ConsensusParams | undefined;
let updateBankParams = false;
let deps: ModuleDeps | undefined;

const probe = defineModule({
  name: 'probe',
  consensusVersion: 1,
  requires: ['bank'],
  create(d) {
    deps = d;
    const record = (hook: string) => async (ctx: import('../../../src/node/modules/shared/context.js').Context): Promise<void> => {
      seen.push({ hook, height: ctx.blockHeight, votes: ctx.cometInfo.lastCommit.votes, misbehavior: ctx.cometInfo.misbehavior });
      ctx.events.emit({ type: 'probe', attributes: [{ key: 'hook', value: hook, index: true }] });
    };
    return {
      keeper: undefined,
      preBlock: async (ctx) => void (await record('preBlock')(ctx)),
      beginBlock: record('beginBlock'),
      endBlock: async (ctx) => {
        await record('endBlock')(ctx);
        if (updateBankParams) {
          updateBankParams = false;
          const msg = pack(MsgUpdateParamsSchema, { authority: accString(d.authority), params: create(BankParamsSchema, { defaultSendEnabled: false }) });
          await d.router.dispatch(ctx, msg, [d.authority]);
        }
        if (nextParams === undefined) return;
        const consensusParamUpdates = nextParams;
        nextParams = undefined;
        return { consensusParamUpdates };
      },
    };
  },
});

describe('module platform in the app', () => {
  let chain: Chain;

  beforeAll(async () => {
    const appState = buildAppState({ accounts: [[alice, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN });
    chain = await startChain(appState, {
      appOptions: {
        moduleSet: {
          modules: [...APP_MODULES, probe],
          orders: {
            ...MODULE_ORDERS,
            preBlock: [...MODULE_ORDERS.preBlock, 'probe'],
            beginBlock: ['probe', ...MODULE_ORDERS.beginBlock],
            endBlock: [...MODULE_ORDERS.endBlock, 'probe'],
            initGenesis: [...MODULE_ORDERS.initGenesis, 'probe'],
            exportGenesis: [...MODULE_ORDERS.exportGenesis, 'probe'],
          },
        },
      },
    });
  });

  afterAll(async () => {
    await chain.close();
  });

  test('hooks see the decided last commit and misbehaviour, in PreBlock → BeginBlock → EndBlock order, with mode attributes', async () => {
    const votes: VoteInfo[] = [{ validatorAddress: new Uint8Array(20).fill(7), power: 100n, blockIdFlag: 2 }];
    const misbehavior: Misbehavior[] = [{ type: 'duplicate_vote', validatorAddress: new Uint8Array(20).fill(7), power: 100n, height: 1, time: new Date(0), totalVotingPower: 100n }];
    seen.length = 0;
    const response = await chain.block([], { decidedLastCommit: { round: 0, votes }, misbehavior });
    expect(seen.map((s) => s.hook)).toEqual(['preBlock', 'beginBlock', 'endBlock']);
    for (const entry of seen) {
      expect(entry.height).toBe(chain.height);
      expect(entry.votes).toEqual(votes);
      expect(entry.misbehavior).toEqual(misbehavior);
    }
    const modes = response.events.filter((e) => e.type === 'probe').map((e) => e.attributes.find((a) => a.key === 'mode')?.value);
    expect(modes).toEqual(['PreBlock', 'BeginBlock', 'EndBlock']);
  });

  test('consensus-param updates from EndBlock reach the engine and the app state', async () => {
    const params = defaultConsensusParams();
    params.block.maxGas = 50_000_000n;
    nextParams = params;
    const response = await chain.block([]);
    expect(response.consensusParamUpdates?.block.maxGas).toBe(50_000_000n);
    const following = await chain.block([]);
    expect(following.consensusParamUpdates).toBeUndefined();
  });

  test('a plain account cannot send MsgUpdateParams: gov code 13 names the authority', async () => {
    const msg = pack(MsgUpdateParamsSchema, { authority: alice.bech32, params: create(BankParamsSchema, { defaultSendEnabled: false }) });
    const result = (await chain.block([signTx({ signer: alice, msgs: [msg], sequence: 0n, accountNumber: 0n })])).txResults[0]!;
    expect(result.codespace).toBe('gov');
    expect(result.code).toBe(13);
    expect(result.log).toBe(
      `failed to execute message; message index: 0: invalid authority; expected ${accString(deps!.authority)}, got ${alice.bech32}: expected gov account as only signer for proposal message`,
    );
  });

  test('a module holding the authority updates bank params through the router', async () => {
    const before = await abciQuery(chain.app, '/cosmos.bank.v1beta1.Query/Params', toBinary(QueryParamsRequestSchema, create(QueryParamsRequestSchema)), QueryParamsResponseSchema);
    expect(before.value?.params?.defaultSendEnabled).toBe(true);
    updateBankParams = true;
    await chain.block([]);
    const after = await abciQuery(chain.app, '/cosmos.bank.v1beta1.Query/Params', toBinary(QueryParamsRequestSchema, create(QueryParamsRequestSchema)), QueryParamsResponseSchema);
    expect(after.value?.params?.defaultSendEnabled).toBe(false);
  });

  test('the chain id of the fixture', () => {
    expect(chain.app.currentChainId).toBe(CHAIN_ID);
  });
});
