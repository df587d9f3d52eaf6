/**
 * Consensus peers that send provably wrong messages are disconnected and banned: a vote with a
 * bad signature, a block part outside the proposal's part set, an undecodable consensus message,
 * and a flood of messages.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { FilePV, generateNodeKey } from '../../../src/node/consensus/privval.js';
import { DATA_CHANNEL, STATE_CHANNEL, VOTE_CHANNEL, VOTE_SET_BITS_CHANNEL } from '../../../src/node/consensus/reactor.js';
import { decodeConsensusMessage, encodeConsensusMessage } from '../../../src/node/consensus/state/messages.js';
import { PartSet } from '../../../src/node/consensus/types/partset.js';
import { SignedMsgType } from '../../../src/node/consensus/types/vote.js';
import { timestampNow } from '../../../src/node/consensus/types/time.js';
import { MemoryNetwork, P2PNode, type Peer, type Reactor, type Switchboard } from '../../../src/node/p2p/index.js';
import type { ChannelDescriptor } from '../../../src/node/p2p/conn/mconnection.js';
import { makeGenesis, makeNode, memoryP2P, type TestNode } from '../consensus/helpers.js';

const running: { stop(): Promise<void> }[] = [];
afterEach(async () => {
  for (const n of running.splice(0).reverse()) await n.stop();
});

/** Speaks the consensus channels but only listens for the target's round and sends what the test says. */
class Attacker implements Reactor {
  readonly name = 'CONSENSUS';
  peer: Peer | undefined;
  height = 0;
  round = 0;
  channels(): ChannelDescriptor[] {
    return [STATE_CHANNEL, DATA_CHANNEL, VOTE_CHANNEL, VOTE_SET_BITS_CHANNEL].map((id) => ({ id, priority: 5, sendQueueCapacity: 10_000, recvMessageCapacity: 1 << 20 }));
  }
  setSwitch(_sw: Switchboard): void {}
  addPeer(peer: Peer): void {
    this.peer = peer;
  }
  removePeer(): void {
    this.peer = undefined;
  }
  receive(ch: number, _peer: Peer, message: Buffer): void {
    if (ch !== STATE_CHANNEL) return;
    const msg = decodeConsensusMessage(message);
    if (msg.type === 'newRoundStep') {
      this.height = msg.height;
      this.round = msg.round;
    }
  }
}

async function setup(): Promise<{ target: TestNode; attacker: Attacker; attackerId: string; validators: FilePV[] }> {
  // Two validators, one offline; the target has 60% of the power: it proposes, cannot commit, and
  // stays at height 1 round 0 with its own proposal.
  const validators = [FilePV.generate(), FilePV.generate()];
  const genesis = makeGenesis(validators);
  genesis.validators[0]!.power = 60n;
  genesis.validators[1]!.power = 40n;
  const network = new MemoryNetwork();
  const keys = [generateNodeKey(), generateNodeKey()];
  const target = await makeNode(genesis, validators[0]!, { p2p: memoryP2P(network, keys, 0) });
  running.push(target);
  await target.start();
  const attacker = new Attacker();
  const p2p = new P2PNode({
    nodeKey: keys[1]!,
    network: genesis.chainId,
    moniker: 'attacker',
    version: '0.38.17',
    memoryNetwork: network,
    options: { laddr: 'tcp://127.0.0.1:20001', pex: false, allowDuplicateIp: true, addrBookStrict: false, persistentPeers: `${keys[0]!.id}@127.0.0.1:20000` },
  });
  p2p.addReactor(attacker);
  await p2p.start();
  running.push(p2p);
  const deadline = Date.now() + 10000;
  while (!attacker.peer || attacker.height === 0) {
    if (Date.now() > deadline) throw new Error('attacker not connected');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { target, attacker, attackerId: keys[1]!.id, validators };
}

async function banned(target: TestNode, id: string): Promise<void> {
  const deadline = Date.now() + 10000;
  while (!target.p2p!.switch.isBanned(id)) {
    if (Date.now() > deadline) throw new Error('peer was not banned');
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(target.p2p!.peerIds()).not.toContain(id);
}

describe('misbehaving consensus peers', () => {
  it('a vote with a bad signature', async () => {
    const { target, attacker, attackerId, validators } = await setup();
    const blockId = { hash: new Uint8Array(32).fill(1), partSetHeader: { total: 1, hash: new Uint8Array(32).fill(2) } };
    const vote = {
      type: SignedMsgType.Prevote as const,
      height: attacker.height,
      round: attacker.round,
      blockId,
      timestamp: timestampNow(),
      validatorAddress: validators[1]!.address,
      validatorIndex: target.consensus.chainState().validators.getByAddress(validators[1]!.address)[0],
      signature: new Uint8Array(64).fill(7),
      extension: new Uint8Array(0),
      extensionSignature: new Uint8Array(0),
    };
    attacker.peer!.send(VOTE_CHANNEL, encodeConsensusMessage({ type: 'vote', vote }));
    await banned(target, attackerId);
  });

  it('a block part outside the proposal', async () => {
    const { target, attacker, attackerId } = await setup();
    const deadline = Date.now() + 10000;
    while (!target.consensus.roundState()?.proposalBlockHash.length) {
      if (Date.now() > deadline) throw new Error('no proposal');
      await new Promise((r) => setTimeout(r, 20));
    }
    const rs = target.consensus.roundState()!;
    const part = PartSet.fromData(new Uint8Array(10)).getPart(0)!;
    attacker.peer!.send(DATA_CHANNEL, encodeConsensusMessage({ type: 'blockPart', height: rs.height, round: rs.round, part: { ...part, index: 5 } }));
    await banned(target, attackerId);
  });

  it('an undecodable message', async () => {
    const { target, attacker, attackerId } = await setup();
    attacker.peer!.send(STATE_CHANNEL, Uint8Array.of(0x0a, 0x05, 0xff, 0xff));
    await banned(target, attackerId);
  });

  it('a flood', async () => {
    const { target, attacker, attackerId } = await setup();
    const msg = encodeConsensusMessage({ type: 'hasVote', height: attacker.height, round: 0, voteType: SignedMsgType.Prevote, index: 0 });
    // Far above the allowed rate, in chunks the send queue (10,000 messages) can take: a fixed
    // 12,000 in one loop overflowed the queue, so only about the burst allowance got through.
    for (let chunk = 0; chunk < 100 && !target.p2p!.switch.isBanned(attackerId) && attacker.peer; chunk++) {
      for (let i = 0; i < 2_000; i++) attacker.peer.send(STATE_CHANNEL, msg);
      await new Promise((r) => setImmediate(r));
    }
    await banned(target, attackerId);
  });
});
