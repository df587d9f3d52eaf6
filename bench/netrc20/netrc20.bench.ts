/**
 * The coin ⇄ ERC-20 converter (issue 12, netrc20) against a bank send, on a real LevelDB (temp
 * dir), through FinalizeBlock → Commit: a coin is registered by a governance proposal (the
 * module deploys its ERC-20), then blocks of MsgConvertCoin (each mints tokens through an EVM
 * call) and of MsgConvertAIOZRC20 (each burns them) from distinct senders, and blocks of MsgSend
 * of the same size, in the same run. Reports tx/s of each and the gas each tx reports.
 *
 *   npx tsx bench/netrc20/netrc20.bench.ts
 *   NETRC20_BENCH_TXS=400 NETRC20_BENCH_BLOCKS=3 npx tsx bench/netrc20/netrc20.bench.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { create, toBinary, type DescMessage, type MessageInitShape } from '@bufbuild/protobuf';
import { RegisterCoinProposalSchema } from '../../src/gen/aioz/aiozrc20/v1/aiozrc20_pb.js';
import { MsgConvertAIOZRC20Schema, MsgConvertCoinSchema } from '../../src/gen/aioz/aiozrc20/v1/tx_pb.js';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { VoteOption } from '../../src/gen/cosmos/gov/v1/gov_pb.js';
import { MsgExecLegacyContentSchema, MsgSubmitProposalSchema, MsgVoteSchema } from '../../src/gen/cosmos/gov/v1/tx_pb.js';
import { TxBodySchema } from '../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { sha256 } from '../../src/keyring/hash.js';
import { anyPack } from '../../src/node/codec/index.js';
import { addGenesisAccounts, collectGentxs, defaultAppState, openApp, type App } from '../../src/node/app/index.js';
import { defaultConsensusParams } from '../../src/node/consensus/types/params.js';
import { accString, moduleAddress } from '../../src/node/modules/shared/address.js';
import { openDatabase } from '../../src/node/store/db/database.js';
import { CHAIN_ID, DENOM, gentx, makeKeys, signedTx, type Key, type Row } from '../app/send.bench.js';

const TOKEN = 10n ** 18n;
const FEE = 2_000_000_000_000_000n;
const COIN = 'ucoin';

function tx<D extends DescMessage>(from: Key, sequence: bigint, schema: D, init: MessageInitShape<D>): Uint8Array {
  const body = toBinary(TxBodySchema, create(TxBodySchema, { messages: [anyPack(schema, create(schema, init))] }));
  return signedTx(from, body, sequence, from.accountNumber, FEE);
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const perBlock = Number(process.env['NETRC20_BENCH_TXS'] ?? 300);
  const blocks = Number(process.env['NETRC20_BENCH_BLOCKS'] ?? 3);
  const keys = makeKeys(perBlock);
  const validator = makeKeys(perBlock + 1)[perBlock]!;
  validator.accountNumber = BigInt(perBlock);
  const dir = await mkdtemp(join(tmpdir(), 'tokend-netrc20-bench-'));
  const db = await openDatabase(dir);
  const rows: Row[] = [];
  let height = 0;
  let app: App | undefined;
  const finalize = async (txs: Uint8Array[]): Promise<{ ms: number; gas: bigint[] }> => {
    height++;
    const t0 = performance.now();
    const response = await app!.finalizeBlock({
      txs,
      decidedLastCommit: { round: 0, votes: [] },
      misbehavior: [],
      hash: sha256(new TextEncoder().encode(`block-${height}`)),
      height,
      time: new Date(Date.parse('2024-01-01T00:00:00Z') + height * 1000),
      nextValidatorsHash: new Uint8Array(32),
      proposerAddress: new Uint8Array(20),
    });
    await app!.commit();
    const ms = performance.now() - t0;
    const failed = response.txResults.find((r) => r.code !== 0);
    if (failed !== undefined) throw new Error(`tx failed at height ${height}: ${failed.code} ${failed.log}`);
    return { ms, gas: response.txResults.map((r) => r.gasUsed) };
  };
  try {
    let appState = defaultAppState({ denom: DENOM });
    appState = addGenesisAccounts(appState, [...keys, validator].map((key) => ({ address: key.address, coins: [{ denom: DENOM, amount: 1_000_000n * TOKEN }, { denom: COIN, amount: 1_000_000_000n }] })));
    appState = collectGentxs(appState, [gentx(validator)], CHAIN_ID);
    const gov = appState.gov as { params: Record<string, unknown> };
    Object.assign(gov.params, { min_deposit: [{ denom: DENOM, amount: '1' }], voting_period: '2s', max_deposit_period: '2s' });
    const opened = await openApp(db, { chainId: CHAIN_ID, minGasPrices: '0attotoken', sigVerifyWorkers: 0 });
    app = opened.app;
    await app.initChain({ time: new Date('2024-01-01T00:00:00Z'), chainId: CHAIN_ID, consensusParams: defaultConsensusParams(), validators: [], appStateBytes: new TextEncoder().encode(JSON.stringify(appState)), initialHeight: 1 });
    await finalize([]);

    // Register ucoin by proposal: submit (the validator holds all the stake), vote, let it pass.
    const govAddress = accString(moduleAddress('gov'));
    const content = anyPack(
      RegisterCoinProposalSchema,
      create(RegisterCoinProposalSchema, { title: 'ucoin', description: 'bench', metadata: { base: COIN, display: COIN, name: 'Coin', symbol: 'COIN', denomUnits: [{ denom: COIN, exponent: 0 }] } }),
    );
    let validatorSequence = 1n;
    await finalize([
      tx(validator, validatorSequence++, MsgSubmitProposalSchema, {
        messages: [anyPack(MsgExecLegacyContentSchema, create(MsgExecLegacyContentSchema, { content, authority: govAddress }))],
        initialDeposit: [{ denom: DENOM, amount: '1' }],
        proposer: validator.bech32,
        title: 'ucoin',
        summary: 'bench',
      }),
    ]);
    await finalize([tx(validator, validatorSequence++, MsgVoteSchema, { proposalId: 1n, voter: validator.bech32, option: VoteOption.YES })]);
    for (let i = 0; i < 4; i++) await finalize([]);
    const pairs = await app.query({ path: '/aioz.aiozrc20.v1.Query/TokenPair', data: new Uint8Array([10, COIN.length, ...new TextEncoder().encode(COIN)]), height: 0, prove: false });
    if (pairs.code !== 0) throw new Error(`ucoin was not registered: ${pairs.log}`);
    const contract = /0x[0-9a-fA-F]{40}/.exec(new TextDecoder().decode(pairs.value))![0];
    log(`ucoin registered by proposal; its ERC-20 at ${contract}`);

    const sequences = keys.map(() => 0n);
    const hexOf = (key: Key) => `0x${Buffer.from(key.address).toString('hex')}`;
    const measure = async (label: string, build: (key: Key, sequence: bigint, i: number) => Uint8Array): Promise<{ tps: number; gas: number }> => {
      let txs = 0;
      let ms = 0;
      let gas = 0n;
      for (let b = 0; b < blocks; b++) {
        const block = keys.map((key, i) => build(key, sequences[i]!++, i));
        const out = await finalize(block);
        txs += block.length;
        ms += out.ms;
        gas += out.gas.reduce((a, g) => a + g, 0n);
      }
      const tps = (txs / ms) * 1000;
      log(`${label}: ${txs} txs in ${blocks} blocks, ${tps.toFixed(0)} tx/s, ${(Number(gas) / txs).toFixed(0)} gas/tx`);
      return { tps, gas: Number(gas) / txs };
    };
    const send = await measure('bank send', (key, sequence, i) => tx(key, sequence, MsgSendSchema, { fromAddress: key.bech32, toAddress: keys[(i + 1) % keys.length]!.bech32, amount: [{ denom: COIN, amount: '1' }] }));
    const toErc20 = await measure('convert-coin', (key, sequence) => tx(key, sequence, MsgConvertCoinSchema, { coin: { denom: COIN, amount: '100' }, receiver: hexOf(key), sender: key.bech32 }));
    const toCoin = await measure('convert-aiozrc20', (key, sequence) => tx(key, sequence, MsgConvertAIOZRC20Schema, { contractAddress: contract, amount: '100', receiver: key.bech32, sender: hexOf(key) }));
    rows.push(
      { name: 'bank send (ucoin)', value: send.tps, unit: 'tx/s' },
      { name: 'convert-coin', value: toErc20.tps, unit: 'tx/s' },
      { name: 'convert-aiozrc20', value: toCoin.tps, unit: 'tx/s' },
      { name: 'convert-coin / send', value: toErc20.tps / send.tps, unit: 'ratio' },
      { name: 'bank send gas', value: send.gas, unit: 'gas/tx' },
      { name: 'convert-coin gas', value: toErc20.gas, unit: 'gas/tx' },
      { name: 'convert-aiozrc20 gas', value: toCoin.gas, unit: 'gas/tx' },
    );
    await opened.close();
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run((line) => process.stderr.write(`${line}\n`))) process.stdout.write(`${row.name}: ${row.value.toFixed(2)} ${row.unit}\n`);
}
