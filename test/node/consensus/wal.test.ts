import { afterEach, describe, expect, it } from '@jest/globals';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileWAL, crc32c, decodeWalBytes, type WalMessage } from '../../../src/node/consensus/state/wal.js';
import { SignedMsgType, type Vote } from '../../../src/node/consensus/types/vote.js';
import { ZERO_TIME, timestampNow } from '../../../src/node/consensus/types/time.js';
import { PartSet } from '../../../src/node/consensus/types/partset.js';
import { FilePV } from '../../../src/node/consensus/privval.js';
import { makeGenesis, makeNode, waitForHeight, type TestNode } from './helpers.js';

const dirs: string[] = [];
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'tokend-wal-'));
  dirs.push(d);
  return d;
}
const running: TestNode[] = [];
afterEach(async () => {
  for (const n of running.splice(0)) await n.consensus.stop();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function vote(height: number, round: number): Vote {
  return {
    type: SignedMsgType.Prevote,
    height,
    round,
    blockId: { hash: new Uint8Array(32).fill(7), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(8) } },
    timestamp: timestampNow(),
    validatorAddress: new Uint8Array(20).fill(1),
    validatorIndex: 0,
    signature: new Uint8Array(64).fill(2),
    extension: new Uint8Array(0),
    extensionSignature: new Uint8Array(0),
  };
}

describe('WAL', () => {
  it('crc32c matches the Castagnoli check value', () => {
    expect(crc32c(new TextEncoder().encode('123456789'))).toBe(0xe3069283);
  });

  it('writes, replays after the previous end-height marker, and survives reopening', () => {
    const path = join(tempDir(), 'cs.wal', 'wal');
    const wal = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    const part = PartSet.fromData(new Uint8Array(1000).fill(3)).getPart(0)!;
    const msgs: WalMessage[] = [
      { kind: 'msgInfo', msg: { type: 'vote', vote: vote(1, 0) }, peerId: '' },
      { kind: 'endHeight', height: 1 },
      { kind: 'msgInfo', msg: { type: 'vote', vote: vote(2, 0) }, peerId: 'peer1' },
      { kind: 'timeout', durationMs: 1500, height: 2, round: 0, step: 3 },
      { kind: 'msgInfo', msg: { type: 'blockPart', height: 2, round: 0, part }, peerId: 'peer2' },
    ];
    for (const m of msgs) wal.write(m);
    wal.writeSync({ kind: 'msgInfo', msg: { type: 'vote', vote: vote(2, 1) }, peerId: '' });
    wal.close();

    const reopened = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    const replay = reopened.replayFrom(1, 2);
    reopened.close();
    expect(replay.found).toBe(true);
    expect(replay.corruption).toBeUndefined();
    expect(replay.messages.map((m) => m.msg.kind)).toEqual(['msgInfo', 'timeout', 'msgInfo', 'msgInfo']);
    const first = replay.messages[0]!.msg;
    expect(first.kind === 'msgInfo' && first.msg.type === 'vote' && first.msg.vote.height).toBe(2);
    const t = replay.messages[1]!.msg;
    expect(t).toEqual({ kind: 'timeout', durationMs: 1500, height: 2, round: 0, step: 3 });
    const p = replay.messages[2]!.msg;
    expect(p.kind === 'msgInfo' && p.msg.type === 'blockPart' && p.msg.part.bytes).toEqual(part.bytes);
    // Height 1 was finished (its marker is in the log): replaying it again is refused.
    const fromGenesis = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    expect(() => fromGenesis.replayFrom(0, 1)).toThrow('wal should not contain #ENDHEIGHT 1');
    fromGenesis.close();
  });

  it('writeSyncAsync leaves the record (and everything buffered before it) in the file when it resolves', async () => {
    const path = join(tempDir(), 'cs.wal', 'wal');
    const wal = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    wal.write({ kind: 'timeout', durationMs: 1000, height: 1, round: 0, step: 1 });
    const before = statSync(path).size;
    await wal.writeSyncAsync({ kind: 'msgInfo', msg: { type: 'vote', vote: vote(1, 0) }, peerId: '' });
    const decoded = decodeWalBytes(new Uint8Array(readFileSync(path)));
    expect(statSync(path).size).toBeGreaterThan(before);
    expect(decoded.records.map((r) => r.msg.kind)).toEqual(['endHeight', 'timeout', 'msgInfo']);
    await wal.writeSyncAsync({ kind: 'endHeight', height: 1 });
    wal.close();
    const reopened = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    expect(reopened.replayFrom(1, 2)).toEqual({ found: true, messages: [] });
    reopened.close();
  });

  it('the engine halts with the OS cause when the signer cannot write its state', async () => {
    const dir = tempDir();
    const stateDir = join(dir, 'state');
    const pv = FilePV.generate({ keyFile: join(dir, 'key.json'), stateFile: join(stateDir, 'priv_validator_state.json') });
    const node = await makeNode(makeGenesis([pv]), pv, { options: { walFile: join(dir, 'cs.wal', 'wal') } });
    running.push(node);
    await node.consensus.start();
    await waitForHeight(node.consensus, 2);
    // The state's directory replaced by a file: the next signature cannot be made durable.
    rmSync(stateDir, { recursive: true, force: true });
    writeFileSync(stateDir, 'not a directory');
    const deadline = Date.now() + 10_000;
    while (node.consensus.failure === undefined && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(node.consensus.failure?.message).toMatch(/cannot persist the signer's state while signing a (vote|proposal): (EEXIST|ENOTDIR)/);
    const halted = node.consensus.blockStore.height();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(node.consensus.blockStore.height()).toBe(halted);
  });

  it('refuses to replay a height whose end marker is already present', () => {
    const path = join(tempDir(), 'wal');
    const wal = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    wal.writeSync({ kind: 'endHeight', height: 1 });
    expect(() => wal.replayFrom(0, 1)).toThrow('wal should not contain #ENDHEIGHT 1');
    wal.close();
  });

  it('a truncated last record ends the replay at the last good record and is cut off', () => {
    const path = join(tempDir(), 'wal');
    const wal = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    wal.writeSync({ kind: 'msgInfo', msg: { type: 'vote', vote: vote(1, 0) }, peerId: '' });
    wal.writeSync({ kind: 'msgInfo', msg: { type: 'vote', vote: vote(1, 1) }, peerId: '' });
    wal.close();
    const full = statSync(path).size;
    truncateSync(path, full - 10); // a crash in the middle of the last write

    const reopened = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    const replay = reopened.replayFrom(0, 1);
    expect(replay.found).toBe(true);
    expect(replay.corruption).toMatch(/torn record/);
    expect(replay.messages).toHaveLength(1);
    // New records follow the good data.
    reopened.writeSync({ kind: 'msgInfo', msg: { type: 'vote', vote: vote(1, 2) }, peerId: '' });
    reopened.close();
    const decoded = decodeWalBytes(new Uint8Array(readFileSync(path)));
    expect(decoded.corruption).toBeUndefined();
    expect(decoded.records.map((r) => (r.msg.kind === 'msgInfo' && r.msg.msg.type === 'vote' ? r.msg.msg.vote.round : -1))).toEqual([-1, 0, 2]);
  });

  it('a corrupted checksum stops the replay at that record', () => {
    const path = join(tempDir(), 'wal');
    const wal = new FileWAL(path, { maxBytes: 1 << 20, flushIntervalMs: 0 });
    wal.writeSync({ kind: 'msgInfo', msg: { type: 'vote', vote: vote(1, 0) }, peerId: '' });
    wal.close();
    const bytes = new Uint8Array(readFileSync(path));
    bytes[bytes.length - 1] ^= 0xff;
    writeFileSync(path, bytes);
    appendFileSync(path, new Uint8Array([1, 2, 3]));
    const decoded = decodeWalBytes(new Uint8Array(readFileSync(path)));
    expect(decoded.corruption).toMatch(/checksums do not match/);
    expect(decoded.records).toHaveLength(1); // just the #ENDHEIGHT 0 marker
  });

  it('rolls over to a fresh file at an end-height marker once it is too big', () => {
    const path = join(tempDir(), 'wal');
    const wal = new FileWAL(path, { maxBytes: 2000, flushIntervalMs: 0 });
    for (let i = 0; i < 30; i++) wal.write({ kind: 'msgInfo', msg: { type: 'vote', vote: vote(1, i) }, peerId: 'p' });
    wal.writeSync({ kind: 'endHeight', height: 1 });
    expect(statSync(path).size).toBeLessThan(100);
    wal.writeSync({ kind: 'msgInfo', msg: { type: 'vote', vote: { ...vote(2, 0), timestamp: ZERO_TIME } }, peerId: '' });
    const replay = wal.replayFrom(1, 2);
    expect(replay.found).toBe(true);
    expect(replay.messages).toHaveLength(1);
    wal.close();
  });

  it('the engine resumes from its WAL after a restart without double-signing', async () => {
    const dir = tempDir();
    const pv = FilePV.generate({ keyFile: join(dir, 'priv_validator_key.json'), stateFile: join(dir, 'priv_validator_state.json') });
    const genesis = makeGenesis([pv]);
    const walFile = join(dir, 'data', 'cs.wal', 'wal');
    const first = await makeNode(genesis, pv, { options: { walFile } });
    await first.consensus.start();
    await waitForHeight(first.consensus, 3);
    await first.consensus.stop();
    const height = first.consensus.blockStore.height();

    // Restart with the key and sign-state reloaded from disk, as a new process would.
    const pv2 = FilePV.load(join(dir, 'priv_validator_key.json'), join(dir, 'priv_validator_state.json'));
    expect(pv2.lastSignState.height).toBeGreaterThanOrEqual(height);
    const app = first.app; // the app kept its committed state
    const second = await makeNode(genesis, pv2, { db: first.db, app, options: { walFile } });
    running.push(second);
    await second.consensus.start();
    await waitForHeight(second.consensus, height + 2);
    expect(second.consensus.failure).toBeUndefined();
    const replayed = decodeWalBytes(new Uint8Array(readFileSync(walFile)));
    expect(replayed.corruption).toBeUndefined();
    const markers = replayed.records.filter((r) => r.msg.kind === 'endHeight').map((r) => (r.msg.kind === 'endHeight' ? r.msg.height : -1));
    expect(markers.slice(0, 3)).toEqual([0, 1, 2]);
  });
});
