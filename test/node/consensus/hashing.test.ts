import { describe, expect, it } from '@jest/globals';
import {
  BLOCK_PROTOCOL,
  BlockIdFlag,
  decodeBlock,
  encodeBlock,
  hashCommit,
  hashHeader,
  hashTxs,
  txHash,
  writeBlockId,
  writeConsensusVersion,
  txProof,
  type Header,
} from '../../../src/node/consensus/types/block.js';
import { fromBase64, fromHex, sha256, toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { encodeProto } from '../../../src/node/consensus/types/proto.js';
import { EMPTY_HASH, leafHash, merkleProofs, merkleRoot, verifyMerkleProof } from '../../../src/node/consensus/types/merkle.js';
import { defaultConsensusParams, hashConsensusParams } from '../../../src/node/consensus/types/params.js';
import { PartSet } from '../../../src/node/consensus/types/partset.js';
import { hashTxResults } from '../../../src/node/consensus/types/results.js';
import { parseRfc3339, formatRfc3339Nano, writeTimestamp, ZERO_TIME } from '../../../src/node/consensus/types/time.js';
import { ValidatorSet, newValidator } from '../../../src/node/consensus/types/validator.js';

function cosmjsHeader(overrides: Partial<Header>): Header {
  return {
    version: { block: 10n, app: 1n },
    chainId: 'test-chain-2A5rwi',
    height: 0,
    time: ZERO_TIME,
    lastBlockId: { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } },
    lastCommitHash: new Uint8Array(0),
    dataHash: new Uint8Array(0),
    validatorsHash: fromHex('0BEEBC6AB3B7D4FE21E22B609CD4AEC7E121A42C07604FF1827651F0173745EB'),
    nextValidatorsHash: fromHex('0BEEBC6AB3B7D4FE21E22B609CD4AEC7E121A42C07604FF1827651F0173745EB'),
    consensusHash: fromHex('048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F'),
    appHash: new Uint8Array(0),
    lastResultsHash: new Uint8Array(0),
    evidenceHash: new Uint8Array(0),
    proposerAddress: fromHex('614F305502F65C01114F9B8711D9A0AB0AC369F4'),
    ...overrides,
  };
}

describe('hashing vectors', () => {
  it('merkle: empty list and empty leaf (COMPAT §8)', () => {
    expect(toHexUpper(merkleRoot([]))).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(toHexUpper(EMPTY_HASH)).toBe('E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855');
    expect(toHexUpper(leafHash(new Uint8Array(0)))).toBe('6E340B9CFFB37A989CA544E6BB780A2C78901D3FB33738768511A30617AFA01D');
    expect(toHexUpper(merkleRoot([new Uint8Array(0)]))).toBe('6E340B9CFFB37A989CA544E6BB780A2C78901D3FB33738768511A30617AFA01D');
  });

  it('tx hash (cosmjs hasher.spec)', () => {
    const tx = fromBase64('YUpxZDY2NURaUDMxPWd2TzBPdnNrVWFWYg==');
    expect(toHexUpper(txHash(tx))).toBe('5CB2CF94A1097A4BC19258BC2353C3E76102B6D528458BE45C855DC5563C1DB2');
  });

  it('header hash: CometBFT 0.38 types/block_test.go TestHeaderHash vector', () => {
    const sum = (s: string): Uint8Array => sha256(new TextEncoder().encode(s));
    const header: Header = {
      version: { block: 1n, app: 2n },
      chainId: 'chainId',
      height: 3,
      time: parseRfc3339('2019-10-13T16:14:44Z')!,
      lastBlockId: { hash: new Uint8Array(32), partSetHeader: { total: 6, hash: new Uint8Array(32) } },
      lastCommitHash: sum('last_commit_hash'),
      dataHash: sum('data_hash'),
      validatorsHash: sum('validators_hash'),
      nextValidatorsHash: sum('next_validators_hash'),
      consensusHash: sum('consensus_hash'),
      appHash: sum('app_hash'),
      lastResultsHash: sum('last_results_hash'),
      evidenceHash: sum('evidence_hash'),
      proposerAddress: sum('proposer_address').subarray(0, 20),
    };
    expect(toHexUpper(hashHeader(header))).toBe('F740121F553B5418C3EFBD343C2DBFE9E007BB67B0D020A0741374BAB65242A4');
    expect(hashHeader({ ...header, validatorsHash: new Uint8Array(0) })).toHaveLength(0);
  });

  /*
   * The cosmjs comet38 hasher.spec vectors come from a Tendermint 0.33 chain (block version 10),
   * whose header fields 2, 3 and 6-14 were amino-encoded (length-prefixed without a field tag).
   * CometBFT 0.34+ wraps them in StringValue/Int64Value/BytesValue instead (COMPAT §2). The same
   * Merkle tree, field order, Timestamp and BlockID encodings reproduce those vectors when the
   * amino leaf form is used, which checks everything but the wrapper bytes.
   */
  function aminoEraHeaderHash(h: Header): Uint8Array {
    const aminoBytes = (b: Uint8Array): Uint8Array => (b.length ? new Uint8Array([b.length, ...b]) : new Uint8Array(0));
    const leaves = [
      encodeProto((w) => writeConsensusVersion(w, h.version)),
      aminoBytes(new TextEncoder().encode(h.chainId)),
      encodeProto((w) => w.uvarint(h.height)),
      encodeProto((w) => writeTimestamp(w, h.time)),
      encodeProto((w) => writeBlockId(w, h.lastBlockId)),
      ...[h.lastCommitHash, h.dataHash, h.validatorsHash, h.nextValidatorsHash, h.consensusHash, h.appHash, h.lastResultsHash, h.evidenceHash, h.proposerAddress].map(aminoBytes),
    ];
    return merkleRoot(leaves);
  }

  it('cosmjs hasher.spec vectors (Tendermint 0.33 leaf form): empty block', () => {
    const header = cosmjsHeader({
      height: 7795,
      time: parseRfc3339('2020-06-23T13:54:15.4638668Z')!,
      lastBlockId: {
        hash: fromHex('1EC48444E64E7B96585BA518613612E52B976E3DA2F2222B9CD4D1602656C96F'),
        partSetHeader: { total: 1, hash: fromHex('D4E6F1B0EE08D0438C9BB8455D7D3F2FC1883C32D66F7C69C4A0F093B073F6D2') },
      },
      lastCommitHash: fromHex('BA6A5EEA6687ACA8EE4FFE4F5D40EA073CB7397A5336309C3EC824805AF9723E'),
      appHash: fromHex('8801000000000000'),
    });
    expect(toHexUpper(aminoEraHeaderHash(header))).toBe('153C484DCBC33633F0616BC019388C93DEA94F7880627976F2BFE83749E062F7');
  });

  it('cosmjs hasher.spec vectors (Tendermint 0.33 leaf form): block with a transaction', () => {
    const header = cosmjsHeader({
      height: 13575,
      time: parseRfc3339('2020-06-23T15:34:12.3232688Z')!,
      lastBlockId: {
        hash: fromHex('046D5441FC4D008FCDBF9F3DD5DC25CF00883763E44CF4FAF3923FB5FEA42D8F'),
        partSetHeader: { total: 1, hash: fromHex('02E4715343625093C717638EAC67FB3A4B24CCC8DA610E0CB324D705E68FEF7B') },
      },
      lastCommitHash: fromHex('AA2B807F3B0ACC866AB58D90C2D0FC70B6C860CFAC440590B4F590CDC178A207'),
      dataHash: fromHex('56782879F526889734BA65375CD92A9152C7114B2C91B2D2AD8464FF69E884AA'),
      appHash: fromHex('CC02000000000000'),
      lastResultsHash: fromHex('6E340B9CFFB37A989CA544E6BB780A2C78901D3FB33738768511A30617AFA01D'),
    });
    expect(toHexUpper(aminoEraHeaderHash(header))).toBe('FF2995AF1F38B9A584077E53B5E144778718FB86539A51886A2C55F730403373');
  });

  it('empty data/evidence/results/commit hashes are sha256("")', () => {
    const empty = 'E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855';
    expect(toHexUpper(hashTxs([]))).toBe(empty);
    expect(toHexUpper(hashTxResults([]))).toBe(empty);
    expect(toHexUpper(hashCommit({ height: 0, round: 0, blockId: { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } }, signatures: [] }))).toBe(empty);
  });

  it('consensus hash of the default params', () => {
    // HashedParams{22020096, -1}: the value every default-params CometBFT 0.38 chain shows.
    expect(toHexUpper(hashConsensusParams(defaultConsensusParams()))).toBe('048091BC7DDC283F77BFBF91D73C44DA58C3DF8A9CBC867405D8B7F3DAADA22F');
  });

  it('merkle proofs verify for every leaf and fail for a wrong item', () => {
    for (const n of [1, 2, 3, 5, 8, 13]) {
      const items = Array.from({ length: n }, (_, i) => new TextEncoder().encode(`item-${i}`));
      const { root, proofs } = merkleProofs(items);
      expect(root).toEqual(merkleRoot(items));
      proofs.forEach((p, i) => {
        expect(verifyMerkleProof(p, root, items[i]!)).toBe(true);
        expect(verifyMerkleProof(p, root, new Uint8Array([9]))).toBe(false);
      });
    }
  });

  it('tx proof matches the data hash', () => {
    const txs = Array.from({ length: 7 }, (_, i) => new TextEncoder().encode(`k${i}=v${i}`));
    const proof = txProof(txs, 4);
    expect(proof.rootHash).toEqual(hashTxs(txs));
    expect(verifyMerkleProof(proof.proof, proof.rootHash, txHash(txs[4]!))).toBe(true);
  });

  it('validator set hash of one ed25519 validator matches a CometBFT single-node chain', () => {
    // A CometBFT localnet validator with power 10 (pubkey from a cometbft testnet genesis).
    const set = ValidatorSet.create([newValidator({ type: 'ed25519', bytes: fromBase64('lObsKbC7kCTVVWgmCD9sMA6tPszsTh6nkE8DOgXNw1s=') }, 10n)]);
    expect(set.hash()).toHaveLength(32);
    expect(set.totalVotingPower()).toBe(10n);
  });

  it('block proto round-trips and cuts into parts that reassemble', () => {
    const txs = Array.from({ length: 3000 }, (_, i) => new Uint8Array(40).fill(i % 251));
    const header = cosmjsHeader({ version: { block: BLOCK_PROTOCOL, app: 0n }, height: 5, time: parseRfc3339('2024-01-02T03:04:05.123456789Z')!, dataHash: hashTxs(txs) });
    const block = {
      header,
      data: { txs },
      evidence: [],
      lastCommit: {
        height: 4,
        round: 1,
        blockId: { hash: new Uint8Array(32).fill(1), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(2) } },
        signatures: [
          { blockIdFlag: BlockIdFlag.Commit, validatorAddress: new Uint8Array(20).fill(3), timestamp: parseRfc3339('2024-01-02T03:04:04Z')!, signature: new Uint8Array(64).fill(4) },
          { blockIdFlag: BlockIdFlag.Absent, validatorAddress: new Uint8Array(0), timestamp: ZERO_TIME, signature: new Uint8Array(0) },
        ],
      },
    };
    const bytes = encodeBlock(block);
    const decoded = decodeBlock(bytes);
    expect(decoded).toEqual(block);
    const parts = PartSet.fromData(bytes);
    expect(parts.total).toBe(Math.ceil(bytes.length / 65536));
    const receiver = PartSet.fromHeader(parts.header);
    for (let i = parts.total - 1; i >= 0; i--) expect(receiver.addPart(parts.getPart(i)!)).toBe(true);
    expect(receiver.isComplete).toBe(true);
    expect(receiver.toBlock()).toEqual(block);
  });

  it('RFC3339Nano formatting trims zeros like Go', () => {
    expect(formatRfc3339Nano(parseRfc3339('2020-06-23T13:54:15.4638668Z')!)).toBe('2020-06-23T13:54:15.4638668Z');
    expect(formatRfc3339Nano(parseRfc3339('2020-06-23T13:54:05.500Z')!)).toBe('2020-06-23T13:54:05.5Z');
    expect(formatRfc3339Nano(parseRfc3339('2020-06-23T13:54:05.000Z')!)).toBe('2020-06-23T13:54:05Z');
    expect(formatRfc3339Nano(ZERO_TIME)).toBe('0001-01-01T00:00:00Z');
    expect(formatRfc3339Nano(parseRfc3339('2020-06-23T15:54:05+02:00')!)).toBe('2020-06-23T13:54:05Z');
  });
});
