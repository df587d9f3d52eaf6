/**
 * A proof-of-stake chain for the staking/distribution/slashing/evidence tests: N validators from
 * gentxs (ed25519 consensus keys), funded accounts, short unbonding and jail times, a tx helper
 * that tracks account numbers and sequences, and the module-account invariants checked after
 * every block.
 */
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import type { ExecTxResult, RequestFinalizeBlock, ResponseFinalizeBlock, VoteInfo } from '../../../../src/node/abci/types.js';
import { addGenesisAccount, collectGentxs, defaultAppState, type AppStateJson } from '../../../../src/node/app/index.js';
import { createModuleManager } from '../../../../src/node/app/modules.js';
import type { ModuleManager } from '../../../../src/node/platform/manager.js';
import type { AccountKeeper as AuthKeeper } from '../../../../src/node/modules/auth/keeper.js';
import type { BankKeeper } from '../../../../src/node/modules/bank/keeper.js';
import { Balances } from '../../../../src/node/modules/bank/keys.js';
import { Context, emptyHeader } from '../../../../src/node/modules/shared/context.js';
import type { StakingKeeper } from '../../../../src/node/modules/staking/keeper.js';
import { consensusAddressOf } from '../../../../src/node/modules/staking/validator.js';
import { CHAIN_ID, DENOM, GENESIS_TIME, TOKEN, consensusKey, makeGentx, signTx, startChain, testKey, type Chain, type TestKey } from '../../app/helpers.js';

export { CHAIN_ID, DENOM, TOKEN };

export interface PosValidator {
  key: TestKey;
  consKey: Uint8Array;
  consAddr: Uint8Array;
  selfDelegation: bigint;
}

export interface PosChainOptions {
  validators?: bigint[];
  accounts?: [TestKey, bigint][];
  /** Edits app_state before InitChain. */
  edit?: (state: JsonObject) => void;
}

export interface PosChain {
  chain: Chain;
  validators: PosValidator[];
  manager: ModuleManager;
  /** A query context over the committed state. */
  ctx(): Context;
  keeper<T>(module: string): T;
  /** Signs and delivers one tx in its own block; returns its result. */
  tx(signer: TestKey, msgs: Any[], options?: { gas?: bigint; fee?: bigint; proposer?: number; extra?: Partial<RequestFinalizeBlock> }): Promise<ExecTxResult>;
  /** A block; every validator signs unless `absent` names some; invariants are checked after it. */
  block(options?: { txs?: Uint8Array[]; absent?: number[]; extra?: Partial<RequestFinalizeBlock>; proposer?: number }): Promise<ResponseFinalizeBlock>;
  /** Last-commit votes of the current bonded validators (power from staking). */
  votes(absent?: number[]): VoteInfo[];
  invariants(): Promise<string[]>;
  /** Moves block time forward (the next blocks are `ms` later than they would have been). */
  advance(ms: number): void;
  /** The time the next block will have. */
  nextTime(): Date;
  close(): Promise<void>;
}

export function posValidatorKey(index: number): TestKey {
  return testKey(`pos-validator-${index}`);
}

export async function startPosChain(options: PosChainOptions = {}): Promise<PosChain> {
  const stakes = options.validators ?? [100n * TOKEN, 100n * TOKEN, 100n * TOKEN, 100n * TOKEN];
  const validators: PosValidator[] = stakes.map((selfDelegation, index) => {
    const key = posValidatorKey(index);
    const consKey = consensusKey(key.bech32);
    return { key, consKey, consAddr: consensusAddressOf({ type: 'ed25519', key: consKey }), selfDelegation };
  });
  let state: AppStateJson = defaultAppState({ denom: DENOM });
  for (const validator of validators) state = addGenesisAccount(state, validator.key.address, [{ denom: DENOM, amount: validator.selfDelegation + 1000n * TOKEN }]);
  for (const [key, amount] of options.accounts ?? []) state = addGenesisAccount(state, key.address, [{ denom: DENOM, amount }]);
  const gentxs: JsonValue[] = validators.map((validator, index) => makeGentx(validator.key, validator.consKey, validator.selfDelegation, { moniker: `validator-${index}` }));
  state = collectGentxs(state, gentxs, CHAIN_ID);
  const json = state as unknown as JsonObject;
  const staking = json.staking as JsonObject;
  (staking.params as JsonObject).unbonding_time = '100s';
  const slashing = json.slashing as JsonObject | undefined;
  if (slashing !== undefined) {
    const params = slashing.params as JsonObject;
    params.signed_blocks_window = '10';
    params.min_signed_per_window = '0.500000000000000000';
    params.downtime_jail_duration = '60s';
  }
  options.edit?.(json);
  const chain = await startChain(state);
  const manager = createModuleManager();
  const ctx = (): Context => new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID, chain.height, new Date()) });
  const keeper = <T>(module: string): T => manager.keeper<T>(module);
  let skew = 0;

  const pos: PosChain = {
    chain,
    validators,
    manager,
    ctx,
    keeper,
    votes(absent = []) {
      const stakingKeeper = keeper<StakingKeeper>('staking');
      const query = ctx();
      return validators.flatMap((validator, index) => {
        const stored = stakingKeeper.getValidatorByConsAddr(query, validator.consAddr);
        const power = stored === undefined ? undefined : stakingKeeper.getLastValidatorPower(query, validator.key.address);
        if (power === undefined) return [];
        return [{ validatorAddress: validator.consAddr, power, blockIdFlag: absent.includes(index) ? 1 : 2 } satisfies VoteInfo];
      });
    },
    async block({ txs = [], absent = [], extra = {}, proposer = 0 } = {}) {
      const response = await chain.block(txs, { decidedLastCommit: { round: 0, votes: pos.votes(absent) }, proposerAddress: validators[proposer]!.consAddr, time: pos.nextTime(), ...extra });
      const problems = await pos.invariants();
      if (problems.length > 0) throw new Error(`invariants broken after block ${chain.height}: ${problems.join('; ')}`);
      return response;
    },
    async tx(signer, msgs, { gas = 1_000_000n, fee, proposer, extra } = {}) {
      const account = keeper<AuthKeeper>('auth').getAccount(ctx(), signer.address);
      if (account === undefined) throw new Error(`no account for ${signer.bech32}`);
      const sequence = account.sequence;
      const response = await pos.block({ txs: [signTx({ signer, msgs, sequence, accountNumber: account.accountNumber, gas, fee })], extra, proposer });
      return response.txResults[0]!;
    },
    async invariants() {
      const query = ctx();
      const problems: string[] = [];
      for (const module of manager.list().map((entry) => entry.declaration.name)) {
        const instance = manager.keeper<{ invariants?: (ctx: Context) => Promise<string[]> }>(module);
        if (typeof instance?.invariants === 'function') problems.push(...(await instance.invariants(query)));
      }
      // Total supply equals the sum of all balances.
      const bank = keeper<BankKeeper>('bank');
      const sums = new Map<string, bigint>();
      for await (const [[, denom], amount] of Balances.iterate(query)) sums.set(denom, (sums.get(denom) ?? 0n) + amount);
      for (const coin of await bank.getTotalSupply(query)) {
        if ((sums.get(coin.denom) ?? 0n) !== coin.amount) problems.push(`supply of ${coin.denom} is ${coin.amount}, balances sum to ${sums.get(coin.denom) ?? 0n}`);
      }
      return problems;
    },
    advance(ms) {
      skew += ms;
    },
    nextTime() {
      return new Date(GENESIS_TIME.getTime() + (chain.height + 1) * 1000 + skew);
    },
    close: () => chain.close(),
  };
  // Genesis state is committed with the first block.
  await pos.block();
  return pos;
}

export function balance(pos: PosChain, address: Uint8Array, denom = DENOM): bigint {
  return pos.keeper<BankKeeper>('bank').getBalance(pos.ctx(), address, denom);
}

/** [code, codespace, log] of a failed message at index 0. */
export function failure(result: ExecTxResult): [number, string, string] {
  return [result.code, result.codespace, result.log];
}

export function failedLog(log: string): string {
  return `failed to execute message; message index: 0: ${log}`;
}
