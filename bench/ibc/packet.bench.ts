/**
 * Issue 13 — packet state proofs: what a relayer's queries and the counterparty's verification
 * cost per packet. An `ibc` store with N packet commitments (and receipts for half of the
 * sequences) is committed once; then, per packet: the commitment hash (CommitPacket), the proof of
 * a commitment (the store's `ics23:iavl` + `ics23:simple` ops, as `abci_query prove=true` builds
 * them), its verification against the app hash (the chained ICS-23 membership a 07-tendermint
 * client runs), and the same for a missing receipt (non-membership, the unordered timeout proof).
 * Wall µs per operation over all N packets, one pass per row.
 *
 *   npx tsx bench/ibc/packet.bench.ts
 *   IBC_BENCH_PACKETS=10000 npx tsx bench/ibc/packet.bench.ts
 *
 * `run()` returns rows {name, value, unit} for bench/run.ts.
 */
import { pathToFileURL } from 'node:url';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { CommitmentProofSchema } from '../../src/gen/cosmos/ics23/v1/proofs_pb.js';
import { PacketSchema, type Packet } from '../../src/gen/ibc/core/channel/v1/channel_pb.js';
import { MerkleProofSchema } from '../../src/gen/ibc/core/commitment/v1/commitment_pb.js';
import { commitPacket } from '../../src/node/modules/ibc/core/channel/keeper.js';
import { verifyChainedMembership, verifyChainedNonMembership } from '../../src/node/modules/ibc/core/commitment/merkle.js';
import { sdkProofSpecs } from '../../src/node/modules/ibc/core/commitment/specs.js';
import { memoryDatabase } from '../../src/node/store/db/database.js';
import { openCommitMultiStore } from '../../src/node/store/index.js';

export interface Row {
  name: string;
  value: number;
  unit: string;
}

const utf8 = new TextEncoder();
const commitmentKey = (n: bigint) => `commitments/ports/transfer/channels/channel-0/sequences/${n}`;
const receiptKey = (n: bigint) => `receipts/ports/transfer/channels/channel-0/sequences/${n}`;

function packetOf(sequence: bigint): Packet {
  const data = utf8.encode(JSON.stringify({ amount: String(1000n + sequence), denom: 'attoaioz', receiver: 'cosmos1receiver', sender: 'aioz1sender' }));
  return create(PacketSchema, { sequence, sourcePort: 'transfer', sourceChannel: 'channel-0', destinationPort: 'transfer', destinationChannel: 'channel-7', data, timeoutHeight: { revisionNumber: 1n, revisionHeight: 1_000_000n } });
}

function micros(start: bigint, count: number): number {
  return Number(process.hrtime.bigint() - start) / 1000 / count;
}

export async function run(log: (line: string) => void = () => {}): Promise<Row[]> {
  const count = Number(process.env['IBC_BENCH_PACKETS'] ?? 1000);
  const packets = Array.from({ length: count }, (_, i) => packetOf(BigInt(i + 1)));
  const store = await openCommitMultiStore(memoryDatabase(), { stores: ['acc', 'bank', 'ibc', 'staking'], syncCommits: false });
  const rows: Row[] = [];

  let start = process.hrtime.bigint();
  const commitments = packets.map((p) => commitPacket(p));
  rows.push({ name: 'CommitPacket hash', value: micros(start, count), unit: 'µs/packet' });

  const branch = store.branch();
  const ibc = branch.getStore('ibc');
  packets.forEach((p, i) => {
    ibc.set(utf8.encode(commitmentKey(p.sequence)), commitments[i]!);
    if (p.sequence % 2n === 0n) ibc.set(utf8.encode(receiptKey(p.sequence)), Uint8Array.of(1));
  });
  for (const name of ['acc', 'bank', 'staking']) branch.getStore(name).set(utf8.encode(name), Uint8Array.of(1));
  branch.write();
  const { version, hash: appHash } = await store.commit();
  log(`${count} commitments, ${count / 2} receipts committed at version ${version}`);

  const proofs: Uint8Array[] = [];
  start = process.hrtime.bigint();
  for (const p of packets) {
    const proof = await store.prove(version, 'ibc', utf8.encode(commitmentKey(p.sequence)));
    proofs.push(toBinary(MerkleProofSchema, create(MerkleProofSchema, { proofs: proof.ops.map((op) => fromBinary(CommitmentProofSchema, op.data)) })));
  }
  rows.push({ name: 'prove a packet commitment (membership, 2 ops)', value: micros(start, count), unit: 'µs/proof' });

  const specs = sdkProofSpecs();
  start = process.hrtime.bigint();
  packets.forEach((p, i) => {
    const merkle = fromBinary(MerkleProofSchema, proofs[i]!);
    verifyChainedMembership(specs, appHash, ['ibc', commitmentKey(p.sequence)], merkle.proofs, commitments[i]!);
  });
  rows.push({ name: 'verify a packet commitment proof', value: micros(start, count), unit: 'µs/proof' });

  const absent = packets.filter((p) => p.sequence % 2n === 1n);
  const absences: Uint8Array[] = [];
  start = process.hrtime.bigint();
  for (const p of absent) {
    const proof = await store.prove(version, 'ibc', utf8.encode(receiptKey(p.sequence)));
    absences.push(toBinary(MerkleProofSchema, create(MerkleProofSchema, { proofs: proof.ops.map((op) => fromBinary(CommitmentProofSchema, op.data)) })));
  }
  rows.push({ name: 'prove a receipt absent (non-membership)', value: micros(start, absent.length), unit: 'µs/proof' });

  start = process.hrtime.bigint();
  absent.forEach((p, i) => {
    const merkle = fromBinary(MerkleProofSchema, absences[i]!);
    verifyChainedNonMembership(specs, appHash, ['ibc', receiptKey(p.sequence)], merkle.proofs);
  });
  rows.push({ name: 'verify a receipt absence proof', value: micros(start, absent.length), unit: 'µs/proof' });
  rows.push({ name: 'proof size (commitment, MerkleProof bytes)', value: proofs[0]!.length, unit: 'bytes' });
  await store.close();
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const rows = await run((line) => process.stderr.write(`${line}\n`));
  for (const row of rows) process.stdout.write(`${row.name}\t${row.value.toFixed(1)}\t${row.unit}\n`);
}
