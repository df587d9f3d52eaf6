/** Shared by the authz and feegrant app tests: one tx per block from a key, state read back from the committed store. */
import type { Any } from '@bufbuild/protobuf/wkt';
import type { ExecTxResult } from '../../../../src/node/abci/types.js';
import { createModuleManager } from '../../../../src/node/app/modules.js';
import type { AccountKeeper } from '../../../../src/node/modules/auth/keeper.js';
import type { BankKeeper } from '../../../../src/node/modules/bank/keeper.js';
import { Context, emptyHeader } from '../../../../src/node/modules/shared/context.js';
import { CHAIN_ID, DENOM, signTx, type Chain, type TestKey, type TxOptions } from '../../app/helpers.js';

export function queryCtx(chain: Chain): Context {
  return new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID, chain.height, new Date(0)) });
}

export function balance(chain: Chain, key: TestKey | Uint8Array): bigint {
  const address = key instanceof Uint8Array ? key : key.address;
  return createModuleManager().keeper<BankKeeper>('bank').getBalance(queryCtx(chain), address, DENOM);
}

/** A tx of `signer` at its current account number and sequence. */
export function txOf(chain: Chain, signer: TestKey, msgs: Any[], options: Partial<TxOptions> = {}): Uint8Array {
  const account = createModuleManager().keeper<AccountKeeper>('auth').getAccount(queryCtx(chain), signer.address);
  if (account === undefined) throw new Error(`no account for ${signer.bech32}`);
  return signTx({ signer, msgs, sequence: account.sequence, accountNumber: account.accountNumber, ...options });
}

/** One block with one tx from `signer`; its result. */
export async function run(chain: Chain, signer: TestKey, msgs: Any[], options: Partial<TxOptions> = {}): Promise<ExecTxResult> {
  // Genesis state is committed with the first block.
  if (chain.height === 0) await chain.block([]);
  const response = await chain.block([txOf(chain, signer, msgs, options)]);
  return response.txResults[0]!;
}

export function attributes(result: ExecTxResult, type: string): Record<string, string>[] {
  return result.events.filter((event) => event.type === type).map((event) => Object.fromEntries(event.attributes.map((attr) => [attr.key, attr.value])));
}
