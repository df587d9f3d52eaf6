import { afterEach, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FilePV, generateNodeKey, loadNodeKey, loadOrGenerateNodeKey, nodeIdFromPubKey, saveNodeKey } from '../../../src/node/consensus/privval.js';
import { fromBase64, fromHex, sha256, toHexUpper } from '../../../src/node/consensus/types/bytes.js';
import { Ed25519PrivateKey, pubKeyAddress, verifySignature } from '../../../src/node/consensus/types/keys.js';
import { SignedMsgType, proposalSignBytes, voteSignBytes, type Proposal, type Vote } from '../../../src/node/consensus/types/vote.js';
import { addMillis, timestampNow } from '../../../src/node/consensus/types/time.js';
import { isConsensusError } from '../../../src/node/consensus/errors.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tokend-pv-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const blockA = { hash: new Uint8Array(32).fill(0xaa), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(1) } };
const blockB = { hash: new Uint8Array(32).fill(0xbb), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(2) } };

function vote(pv: FilePV, height: number, round: number, type: SignedMsgType.Prevote | SignedMsgType.Precommit, blockId = blockA): Vote {
  return {
    type,
    height,
    round,
    blockId,
    timestamp: timestampNow(),
    validatorAddress: pv.address,
    validatorIndex: 0,
    signature: new Uint8Array(0),
    extension: new Uint8Array(0),
    extensionSignature: new Uint8Array(0),
  };
}

function expectDoubleSign(fn: () => void, text: RegExp): void {
  try {
    fn();
  } catch (err) {
    expect(isConsensusError(err, 'DOUBLE_SIGN')).toBe(true);
    expect((err as Error).message).toMatch(text);
    return;
  }
  throw new Error('expected a DOUBLE_SIGN refusal');
}

describe('canonical sign bytes (CometBFT types/vote_test.go vectors)', () => {
  const zeroId = { hash: new Uint8Array(0), partSetHeader: { total: 0, hash: new Uint8Array(0) } };
  const goZero = { seconds: -62135596800, nanos: 0 };
  const base = { blockId: zeroId, timestamp: goZero };
  it('empty vote', () => {
    expect([...voteSignBytes('', { ...base, type: 0 as SignedMsgType.Prevote, height: 0, round: 0 })]).toEqual([0xd, 0x2a, 0xb, 0x8, 0x80, 0x92, 0xb8, 0xc3, 0x98, 0xfe, 0xff, 0xff, 0xff, 0x1]);
  });
  it('precommit with height and round', () => {
    expect([...voteSignBytes('', { ...base, type: SignedMsgType.Precommit, height: 1, round: 1 })]).toEqual([
      0x21, 0x8, 0x2, 0x11, 0x1, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x19, 0x1, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x2a, 0xb, 0x8, 0x80, 0x92, 0xb8, 0xc3, 0x98, 0xfe,
      0xff, 0xff, 0xff, 0x1,
    ]);
  });
  it('with chain id', () => {
    expect([...voteSignBytes('test_chain_id', { ...base, type: 0 as SignedMsgType.Prevote, height: 1, round: 1 })]).toEqual([
      0x2e, 0x11, 0x1, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x19, 0x1, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x0, 0x2a, 0xb, 0x8, 0x80, 0x92, 0xb8, 0xc3, 0x98, 0xfe, 0xff, 0xff,
      0xff, 0x1, 0x32, 0xd, 0x74, 0x65, 0x73, 0x74, 0x5f, 0x63, 0x68, 0x61, 0x69, 0x6e, 0x5f, 0x69, 0x64,
    ]);
  });
  it('proposal sign bytes differ from vote sign bytes', () => {
    const p = proposalSignBytes('', { height: 1, round: 1, polRound: -1, blockId: zeroId, timestamp: goZero });
    const v = voteSignBytes('', { ...base, type: 0 as SignedMsgType.Prevote, height: 1, round: 1 });
    expect(toHexUpper(p)).not.toBe(toHexUpper(v));
  });
});

describe('FilePV', () => {
  it('writes priv_validator_key.json / priv_validator_state.json in CometBFT format and loads them back', () => {
    const dir = tempDir();
    const keyFile = join(dir, 'config', 'priv_validator_key.json');
    const stateFile = join(dir, 'data', 'priv_validator_state.json');
    const pv = FilePV.generate({ keyFile, stateFile });
    const keyJson = JSON.parse(readFileSync(keyFile, 'utf8')) as Record<string, { type: string; value: string } | string>;
    expect(Object.keys(keyJson)).toEqual(['address', 'pub_key', 'priv_key']);
    expect(keyJson['address']).toBe(toHexUpper(pv.address));
    expect(keyJson['pub_key']).toEqual({ type: 'tendermint/PubKeyEd25519', value: Buffer.from(pv.pubKey.bytes).toString('base64') });
    const priv = keyJson['priv_key'] as { type: string; value: string };
    expect(priv.type).toBe('tendermint/PrivKeyEd25519');
    expect(fromBase64(priv.value)).toHaveLength(64);
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toEqual({ height: '0', round: 0, step: 0 });
    expect(pv.address).toEqual(sha256(pv.pubKey.bytes).subarray(0, 20));

    const loaded = FilePV.load(keyFile, stateFile);
    expect(toHexUpper(loaded.address)).toBe(toHexUpper(pv.address));
  });

  it('signs votes and proposals verifiably', () => {
    const pv = FilePV.generate();
    const v = vote(pv, 5, 0, SignedMsgType.Prevote);
    pv.signVote('chain', v);
    expect(verifySignature(pv.pubKey, voteSignBytes('chain', v), v.signature)).toBe(true);
    const p: Proposal = { type: SignedMsgType.Proposal, height: 6, round: 0, polRound: -1, blockId: blockA, timestamp: timestampNow(), signature: new Uint8Array(0) };
    pv.signProposal('chain', p);
    expect(verifySignature(pv.pubKey, proposalSignBytes('chain', p), p.signature)).toBe(true);
  });

  it('refuses to sign a different vote at the same height/round/step, and any regression', () => {
    const pv = FilePV.generate();
    const first = vote(pv, 10, 1, SignedMsgType.Prevote, blockA);
    pv.signVote('chain', first);
    expectDoubleSign(() => pv.signVote('chain', vote(pv, 10, 1, SignedMsgType.Prevote, blockB)), /conflicting data/);
    expectDoubleSign(() => pv.signVote('chain', vote(pv, 9, 5, SignedMsgType.Precommit)), /height regression/);
    expectDoubleSign(() => pv.signVote('chain', vote(pv, 10, 0, SignedMsgType.Precommit)), /round regression/);
    pv.signVote('chain', vote(pv, 10, 1, SignedMsgType.Precommit));
    expectDoubleSign(() => pv.signVote('chain', vote(pv, 10, 1, SignedMsgType.Prevote)), /step regression/);
    const p: Proposal = { type: SignedMsgType.Proposal, height: 10, round: 1, polRound: -1, blockId: blockA, timestamp: timestampNow(), signature: new Uint8Array(0) };
    expectDoubleSign(() => pv.signProposal('chain', p), /step regression/);
  });

  it('re-signing the same vote with a newer timestamp returns the original signature and timestamp', () => {
    const pv = FilePV.generate();
    const original = vote(pv, 3, 0, SignedMsgType.Precommit);
    pv.signVote('chain', original);
    const again = { ...vote(pv, 3, 0, SignedMsgType.Precommit), timestamp: addMillis(original.timestamp, 5000) };
    pv.signVote('chain', again);
    expect(again.timestamp).toEqual(original.timestamp);
    expect(toHexUpper(again.signature)).toBe(toHexUpper(original.signature));
  });

  it('persists the sign state (persisted() resolves once it is on disk), so a restarted signer still refuses', async () => {
    const dir = tempDir();
    const keyFile = join(dir, 'key.json');
    const stateFile = join(dir, 'state.json');
    const pv = FilePV.generate({ keyFile, stateFile });
    const v = vote(pv, 7, 2, SignedMsgType.Prevote, blockA);
    pv.signVote('chain', v);
    await pv.persisted();
    const state = JSON.parse(readFileSync(stateFile, 'utf8')) as Record<string, unknown>;
    expect(state).toMatchObject({ height: '7', round: 2, step: 2, signature: Buffer.from(v.signature).toString('base64') });
    expect(fromHex(state['signbytes'] as string)).toEqual(voteSignBytes('chain', v));

    const restarted = FilePV.load(keyFile, stateFile);
    expectDoubleSign(() => restarted.signVote('chain', vote(restarted, 7, 2, SignedMsgType.Prevote, blockB)), /conflicting data/);
    expectDoubleSign(() => restarted.signVote('chain', vote(restarted, 6, 0, SignedMsgType.Prevote)), /height regression/);
    const same = { ...vote(restarted, 7, 2, SignedMsgType.Prevote, blockA), timestamp: v.timestamp };
    restarted.signVote('chain', same);
    expect(same.signature).toEqual(v.signature);
  });

  it('writes sign states in order, the last one wins, and a burst of signatures coalesces', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state.json');
    const pv = FilePV.generate({ keyFile: join(dir, 'key.json'), stateFile });
    for (let h = 1; h <= 20; h++) {
      pv.signVote('chain', vote(pv, h, 0, SignedMsgType.Prevote));
      pv.signVote('chain', vote(pv, h, 0, SignedMsgType.Precommit));
    }
    await pv.persisted();
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({ height: '20', round: 0, step: 3 });
    // Another signature after the burst is written too.
    pv.signVote('chain', vote(pv, 21, 0, SignedMsgType.Prevote));
    await pv.persisted();
    expect(JSON.parse(readFileSync(stateFile, 'utf8'))).toMatchObject({ height: '21', step: 2 });
  });

  it('a sign state that cannot be written rejects persisted() with the OS cause, and keeps rejecting', async () => {
    const dir = tempDir();
    const stateFile = join(dir, 'state', 'state.json');
    const pv = FilePV.generate({ keyFile: join(dir, 'key.json'), stateFile });
    // The state's directory replaced by a file: every later write fails.
    rmSync(join(dir, 'state'), { recursive: true, force: true });
    writeFileSync(join(dir, 'state'), 'not a directory');
    pv.signVote('chain', vote(pv, 4, 0, SignedMsgType.Prevote));
    await expect(pv.persisted()).rejects.toThrow(/EEXIST|ENOTDIR/);
    pv.signVote('chain', vote(pv, 4, 0, SignedMsgType.Precommit));
    await expect(pv.persisted()).rejects.toThrow(/EEXIST|ENOTDIR/);
  });

  it('rejects a key file whose address does not match the key', () => {
    const dir = tempDir();
    const keyFile = join(dir, 'key.json');
    FilePV.generate({ keyFile, stateFile: join(dir, 's.json') });
    const json = JSON.parse(readFileSync(keyFile, 'utf8')) as Record<string, unknown>;
    json['address'] = '00'.repeat(20);
    writeFileSync(keyFile, JSON.stringify(json));
    expect(() => FilePV.load(keyFile, join(dir, 's.json'))).toThrow(/address does not match/);
  });
});

describe('node key', () => {
  it('node_key.json round-trips and the node ID is the lowercase hex address of the key', () => {
    const dir = tempDir();
    const path = join(dir, 'config', 'node_key.json');
    const key = loadOrGenerateNodeKey(path);
    const text = readFileSync(path, 'utf8');
    const json = JSON.parse(text) as { priv_key: { type: string; value: string } };
    expect(Object.keys(json)).toEqual(['priv_key']);
    expect(json.priv_key.type).toBe('tendermint/PrivKeyEd25519');
    expect(key.id).toMatch(/^[0-9a-f]{40}$/);
    expect(key.id).toBe(Buffer.from(pubKeyAddress(key.privateKey.pubKey)).toString('hex'));
    expect(nodeIdFromPubKey(key.privateKey.pubKey)).toBe(key.id);
    expect(loadNodeKey(path).id).toBe(key.id);
    expect(loadOrGenerateNodeKey(path).id).toBe(key.id);
    const other = generateNodeKey();
    saveNodeKey(other, path);
    expect(loadNodeKey(path).id).toBe(other.id);
  });

  it('an ed25519 key from a 32-byte seed matches RFC 8032 test vector 1', () => {
    const seed = fromHex('9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60');
    const key = Ed25519PrivateKey.fromBytes(seed);
    expect(Buffer.from(key.pubKey.bytes).toString('hex')).toBe('d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a');
    const sig = key.sign(new Uint8Array(0));
    expect(Buffer.from(sig).toString('hex')).toBe(
      'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b',
    );
  });
});

