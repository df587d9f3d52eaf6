/**
 * Issue 13 — the cost of a 07-tendermint client update per header: CometBFT light-client
 * verification (checkValidity: trusted-validator check, header checks, commit signatures) of
 * headers signed by 4 and by 100 validators, adjacent (one +2/3 commit check) and non-adjacent
 * (the trust-level pass over the trusted set, then the +2/3 pass — the second finds the
 * signatures already verified in the engine's signature cache); then a whole MsgUpdateClient in a
 * block (decode, ante, verification, store writes, FinalizeBlock + Commit) against an empty block,
 * with the gas it uses and the gas a simulation of the first one reports (what a relayer's fee
 * "auto" starts from).
 * Every header is distinct (fresh signatures), so nothing is served from a cache across headers.
 * CPU time (process.cpuUsage), one pass per row.
 *
 *   npx tsx bench/ibc/client.bench.ts
 *   IBC_BENCH_HEADERS=100 npx tsx bench/ibc/client.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { create } from '@bufbuild/protobuf';
import { MsgCreateClientSchema, MsgUpdateClientSchema } from '../../src/gen/ibc/core/client/v1/tx_pb.js';
import { ClientStateSchema, ConsensusStateSchema, HeaderSchema } from '../../src/gen/ibc/lightclients/tendermint/v1/tendermint_pb.js';
import { anyPack } from '../../src/node/codec/index.js';
import { checkValidity } from '../../src/node/modules/ibc/lightclients/tendermint/client.js';
import { GENESIS_TIME, TOKEN, buildAppState, signTx, startChain, testKey } from '../../test/node/app/helpers.js';
import { consensusStateOf, height, ibcHeader, signBlock, testClientState, testValidator, validatorSetOf, type SignedBlock } from '../../test/helpers/ibcHeaders.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const CHAIN = 'chainb-1';
const T0 = Math.floor(GENESIS_TIME.getTime() / 1000) - 3600;
const NS = 1_000_000_000n;

function cpuMicros(): number {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
}

function chainOf(size: number, count: number, seed: string): SignedBlock[] {
  const vals = Array.from({ length: size }, (_, i) => testValidator(`${seed}-${i}`, 10n));
  const set = validatorSetOf(vals);
  return Array.from({ length: count }, (_, i) => signBlock({ chainId: CHAIN, height: 10 + i, time: { seconds: T0 + (10 + i) * 5, nanos: 0 }, validators: set, nextValidators: set, signers: vals }));
}

/** CPU µs per header verified from its predecessor (adjacent) or from `stride` heights back. */
function verifyCost(blocks: SignedBlock[], stride: number): number {
  const cs = testClientState(CHAIN, height(1n, 10n));
  const now = BigInt(T0 + 100_000) * NS;
  const pairs = [];
  for (let i = stride; i < blocks.length; i += stride) pairs.push([blocks[i - stride]!, blocks[i]!] as const);
  const prepared = pairs.map(([trusted, target]) => ({ cons: consensusStateOf(trusted), header: ibcHeader(target, height(1n, BigInt(trusted.header.height)), trusted.validators) }));
  const started = cpuMicros();
  for (const { cons, header } of prepared) checkValidity(cs, cons, header, now);
  return (cpuMicros() - started) / prepared.length;
}

/** CPU µs per block carrying one MsgUpdateClient (adjacent headers in sequence), and per empty block. */
async function inBlockCost(blocks: SignedBlock[]): Promise<{ update: number; empty: number; gas: number; simulatedGas: number }> {
  const relayer = testKey('relayer');
  const validator = testKey('validator');
  const chain = await startChain(buildAppState({ accounts: [[relayer, 1000n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }));
  try {
    let sequence = 0n;
    const tx = (msg: ReturnType<typeof anyPack>) => signTx({ signer: relayer, msgs: [msg], sequence: sequence++, accountNumber: 0n, fee: 20_000n, gas: 20_000_000n });
    const first = blocks[0]!;
    const created = await chain.block([
      tx(anyPack(MsgCreateClientSchema, create(MsgCreateClientSchema, {
        clientState: anyPack(ClientStateSchema, testClientState(CHAIN, height(1n, BigInt(first.header.height)))),
        consensusState: anyPack(ConsensusStateSchema, consensusStateOf(first)),
        signer: relayer.bech32,
      }))),
    ]);
    if (created.txResults[0]!.code !== 0) throw new Error(`create client failed: ${created.txResults[0]!.log}`);
    const txs = blocks.slice(1).map((block, i) => tx(anyPack(MsgUpdateClientSchema, create(MsgUpdateClientSchema, {
      clientId: '07-tendermint-0',
      header: anyPack(HeaderSchema, ibcHeader(block, height(1n, BigInt(blocks[i]!.header.height)), blocks[i]!.validators)),
      signer: relayer.bech32,
    }))));
    // The gas a relayer's fee "auto" sees: the first update simulated (on the CheckTx state), as
    // CosmJS does before multiplying by its gas multiplier.
    const simulated = await chain.app.simulate(txs[0]!);
    if (!simulated.ok) throw new Error(`simulate failed: ${simulated.log}`);
    let gas = 0n;
    let started = cpuMicros();
    for (const t of txs) {
      const result = await chain.block([t]);
      if (result.txResults[0]!.code !== 0) throw new Error(`update failed: ${result.txResults[0]!.log}`);
      gas += result.txResults[0]!.gasUsed;
    }
    const update = (cpuMicros() - started) / txs.length;
    started = cpuMicros();
    for (let i = 0; i < txs.length; i++) await chain.block([]);
    const empty = (cpuMicros() - started) / txs.length;
    return { update, empty, gas: Number(gas) / txs.length, simulatedGas: Number(simulated.gasUsed) };
  } finally {
    await chain.close();
  }
}

/** CPU µs of one raw ed25519 verification (node:crypto), the unit the rows can be read in on a loaded machine. */
function rawVerifyCost(): number {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const message = Buffer.alloc(120, 1);
  const signature = sign(null, message, privateKey);
  const count = 2000;
  const started = cpuMicros();
  for (let i = 0; i < count; i++) verify(null, message, publicKey, signature);
  return (cpuMicros() - started) / count;
}

export async function run(log: (line: string) => void = () => undefined): Promise<Row[]> {
  const headers = Number(process.env['IBC_BENCH_HEADERS'] ?? 41);
  // One pass per set: the engine caches verified signatures, so a second pass over the same
  // headers would measure the cache. Each row uses its own freshly signed headers.
  log(`signing ${headers} headers per row with 4 and with 100 validators …`);
  const rows: Row[] = [];
  const verifyRow = (name: string, size: number, seed: string, stride: number): void => {
    rows.push({ name, value: verifyCost(chainOf(size, headers, seed), stride), unit: 'µs CPU/header' });
  };
  verifyRow('verify adjacent, 4 validators', 4, 'v4', 1);
  verifyRow('verify adjacent, 100 validators', 100, 'v100', 1);
  verifyRow('verify non-adjacent (+10), 4 vals', 4, 'v4b', 10);
  verifyRow('verify non-adjacent (+10), 100 vals', 100, 'v100b', 10);
  for (const size of [4, 100]) {
    const { update, empty, gas, simulatedGas } = await inBlockCost(chainOf(size, headers, `v${size}c`));
    rows.push({ name: `block with MsgUpdateClient, ${size} vals`, value: update, unit: 'µs CPU/block' });
    rows.push({ name: `MsgUpdateClient gas used, ${size} vals`, value: gas, unit: 'gas/tx' });
    rows.push({ name: `MsgUpdateClient simulated, ${size} vals`, value: simulatedGas, unit: 'gas (1st)' });
    rows.push({ name: `empty block, same chain (${size} vals run)`, value: empty, unit: 'µs CPU/block' });
  }
  const raw = rawVerifyCost();
  rows.push({ name: 'raw ed25519 verify (node:crypto)', value: raw, unit: 'µs CPU' });
  rows.push({ name: 'adjacent 100-val header / raw verify', value: rows[1]!.value / raw, unit: 'verifications' });
  for (const row of rows) log(`${row.name}: ${row.value.toFixed(1)} ${row.unit}`);
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const row of await run(console.error)) console.log(`${row.name}\t${row.value.toFixed(2)}\t${row.unit}`);
}
