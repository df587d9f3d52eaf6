/**
 * Cosmos txs signed as EIP-712 typed data by an Ethereum wallet (Ethermint v0.22's legacy
 * ExtensionOptionsWeb3Tx path), in-process. The wallet side (test/helpers/eip712.ts) is written
 * the way a web front-end does it: types spelled out by hand, the amino JSON sign doc as object
 * literals, signed with viem's signTypedData and cross-checked with an ethers v6 wallet.
 */
import { create, toBinary, type JsonObject } from '@bufbuild/protobuf';
import { QueryVoteRequestSchema, QueryVoteResponseSchema } from '../../../../src/gen/cosmos/gov/v1beta1/query_pb.js';
import { QueryDelegationRequestSchema, QueryDelegationResponseSchema } from '../../../../src/gen/cosmos/staking/v1beta1/query_pb.js';
import type { Any } from '@bufbuild/protobuf/wkt';
import { MsgDelegateSchema } from '../../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { MsgVoteSchema, MsgSubmitProposalSchema } from '../../../../src/gen/cosmos/gov/v1beta1/tx_pb.js';
import { TextProposalSchema, VoteOption } from '../../../../src/gen/cosmos/gov/v1beta1/gov_pb.js';
import { SignMode } from '../../../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { MsgEthereumTxSchema } from '../../../../src/gen/ethermint/evm/v1/tx_pb.js';
import { ExtensionOptionsWeb3TxSchema } from '../../../../src/gen/ethermint/types/v1/web3_pb.js';
import type { AccountKeeper } from '../../../../src/node/modules/auth/keeper.js';
import type { BankKeeper } from '../../../../src/node/modules/bank/keeper.js';
import { Context } from '../../../../src/node/modules/shared/context.js';
import { MSG_DELEGATE_TYPES, MSG_SEND_TYPES, MSG_VOTE_TYPES, signCosmosTypedData, type TypeMap } from '../../../helpers/eip712.js';
import { CHAIN_ID, DENOM, TOKEN, abciQuery, buildAppState, coin, msgSend, pack, signTx, startChain, testKey, type Chain, type TestKey } from '../../app/helpers.js';

const alice = testKey('eip712-alice');
const bob = testKey('eip712-bob');
const mallory = testKey('eip712-mallory');
const validator = testKey('validator');
const EIP155 = 9000;
const FEE = 5_000_000_000_000n;
const GAS = 300_000n;

interface WalletTx {
  signer: TestKey;
  accountNumber: bigint;
  sequence: bigint;
  /** The tx's messages (what goes on chain) and their amino JSON (what the wallet shows and signs). */
  msgs: Any[];
  aminoMsgs: JsonObject[];
  msgTypes: TypeMap;
  memo?: string;
  /** Overrides for the bad-input cases. */
  chainIdInOption?: bigint;
  signingKey?: TestKey;
  signMode?: SignMode;
  feePayer?: TestKey;
  editSignature?: (signature: Uint8Array) => Uint8Array;
  cosmosSignature?: Uint8Array;
}

function signDoc(tx: WalletTx): JsonObject {
  return {
    account_number: tx.accountNumber.toString(),
    chain_id: CHAIN_ID,
    fee: { amount: [{ amount: FEE.toString(), denom: DENOM }], gas: GAS.toString(), feePayer: (tx.feePayer ?? tx.signer).bech32 },
    memo: tx.memo ?? '',
    msgs: tx.aminoMsgs,
    sequence: tx.sequence.toString(),
  };
}

function walletSign(key: TestKey, msgTypes: TypeMap, message: JsonObject): Promise<Uint8Array> {
  return signCosmosTypedData(key.privateKey, EIP155, msgTypes, message);
}

async function web3Tx(tx: WalletTx): Promise<Uint8Array> {
  const signed = await walletSign(tx.signingKey ?? tx.signer, tx.msgTypes, signDoc(tx));
  const signature = tx.editSignature ? tx.editSignature(signed) : signed;
  const option = pack(ExtensionOptionsWeb3TxSchema, { typedDataChainId: tx.chainIdInOption ?? BigInt(EIP155), feePayer: (tx.feePayer ?? tx.signer).bech32, feePayerSig: signature });
  return signTx({
    signer: tx.signer,
    msgs: tx.msgs,
    sequence: tx.sequence,
    accountNumber: tx.accountNumber,
    fee: FEE,
    gas: GAS,
    memo: tx.memo,
    signMode: tx.signMode ?? SignMode.LEGACY_AMINO_JSON,
    extensionOptions: [option],
    signatures: [tx.cosmosSignature ?? new Uint8Array(0)],
  });
}

function sendAmino(from: TestKey, to: TestKey, amount: bigint): JsonObject {
  return { type: 'cosmos-sdk/MsgSend', value: { amount: [{ amount: amount.toString(), denom: DENOM }], from_address: from.bech32, to_address: to.bech32 } };
}

describe('EIP-712 signed Cosmos txs (ExtensionOptionsWeb3Tx)', () => {
  let chain: Chain;
  const manager = () => (chain.app as unknown as { manager: { keeper<T>(name: string): T } }).manager;
  const ctx = () => new Context({ mode: 'query', multiStore: chain.store, header: { height: chain.height, time: new Date(), chainId: CHAIN_ID, proposerAddress: new Uint8Array(0), hash: new Uint8Array(0), nextValidatorsHash: new Uint8Array(0) } });
  const balance = (key: TestKey) => manager().keeper<BankKeeper>('bank').getBalance(ctx(), key.address, DENOM);
  const account = (key: TestKey) => manager().keeper<AccountKeeper>('auth').getAccount(ctx(), key.address)!;

  beforeEach(async () => {
    const state = buildAppState({ accounts: [[alice, 1000n * TOKEN], [bob, 10n * TOKEN], [mallory, 10n * TOKEN], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN });
    const gov = (state as unknown as { gov: { params: JsonObject } }).gov;
    gov.params.min_deposit = [{ denom: DENOM, amount: TOKEN.toString() }];
    chain = await startChain(state);
  });
  afterEach(async () => {
    await chain.close();
  });

  test('a MsgSend signed with signTypedData is accepted and committed; balances change exactly', async () => {
    const before = { alice: balance(alice), bob: balance(bob) };
    const amount = 1_234_567n;
    const tx = await web3Tx({ signer: alice, accountNumber: account(alice).accountNumber, sequence: 0n, msgs: [msgSend(alice.bech32, bob.bech32, amount)], aminoMsgs: [sendAmino(alice, bob, amount)], msgTypes: MSG_SEND_TYPES, memo: 'from MetaMask' });
    await chain.block([]); // CheckTx reads the committed state of a block
    // A wallet estimates gas first: simulation runs the same chain (no signature check).
    const simulated = await chain.app.simulate(tx);
    expect(simulated.log).toBe('');
    expect(simulated.ok).toBe(true);
    expect(simulated.gasUsed).toBeGreaterThan(21_000n);
    const check = await chain.app.checkTx({ tx, type: 'new' });
    expect(check.log).toBe('');
    expect(check.code).toBe(0);
    const result = (await chain.block([tx])).txResults[0]!;
    expect(result.log).toBe('');
    expect(result.code).toBe(0);
    expect(balance(bob)).toBe(before.bob + amount);
    expect(balance(alice)).toBe(before.alice - amount - FEE);
    expect(account(alice).sequence).toBe(1n);
    expect(account(alice).pubKey?.algo).toBe('eth_secp256k1');
    // The next one, at sequence 1, with two sends of the same type.
    const two = await web3Tx({
      signer: alice,
      accountNumber: account(alice).accountNumber,
      sequence: 1n,
      msgs: [msgSend(alice.bech32, bob.bech32, 1n), msgSend(alice.bech32, mallory.bech32, 2n)],
      aminoMsgs: [sendAmino(alice, bob, 1n), sendAmino(alice, mallory, 2n)],
      msgTypes: MSG_SEND_TYPES,
    });
    const second = (await chain.block([two])).txResults[0]!;
    expect(second.log).toBe('');
    expect(balance(bob)).toBe(before.bob + amount + 1n);
    expect(balance(alice)).toBe(before.alice - amount - 3n - 2n * FEE);
  });

  test('a MsgDelegate and a v1beta1 MsgVote signed the same way are accepted', async () => {
    const delegate = pack(MsgDelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: validator.valoper, amount: coin(5n * TOKEN) });
    const delegateAmino = { type: 'cosmos-sdk/MsgDelegate', value: { amount: { amount: (5n * TOKEN).toString(), denom: DENOM }, delegator_address: alice.bech32, validator_address: validator.valoper } };
    const before = balance(alice);
    const delegated = (await chain.block([await web3Tx({ signer: alice, accountNumber: account(alice).accountNumber, sequence: 0n, msgs: [delegate], aminoMsgs: [delegateAmino], msgTypes: MSG_DELEGATE_TYPES })])).txResults[0]!;
    expect(delegated.log).toBe('');
    expect(delegated.code).toBe(0);
    expect(balance(alice)).toBe(before - 5n * TOKEN - FEE);
    const { value: delegation } = await abciQuery(chain.app, '/cosmos.staking.v1beta1.Query/Delegation', toBinary(QueryDelegationRequestSchema, create(QueryDelegationRequestSchema, { delegatorAddr: alice.bech32, validatorAddr: validator.valoper })), QueryDelegationResponseSchema);
    expect(delegation?.delegationResponse?.balance?.amount).toBe((5n * TOKEN).toString());

    // A text proposal (bob, SIGN_MODE_DIRECT), then alice votes YES from her Ethereum wallet.
    const content = pack(TextProposalSchema, { title: 'Signal', description: 'A text proposal' });
    const submitted = (await chain.block([signTx({ signer: bob, accountNumber: account(bob).accountNumber, sequence: 0n, fee: FEE, gas: GAS, msgs: [pack(MsgSubmitProposalSchema, { content, initialDeposit: [coin(TOKEN)], proposer: bob.bech32 })] })])).txResults[0]!;
    expect(submitted.log).toBe('');
    const id = BigInt(submitted.events.find((e) => e.type === 'submit_proposal')!.attributes.find((a) => a.key === 'proposal_id')!.value);
    const vote = pack(MsgVoteSchema, { proposalId: id, voter: alice.bech32, option: VoteOption.YES });
    const voteAmino = { type: 'cosmos-sdk/MsgVote', value: { option: VoteOption.YES, proposal_id: id.toString(), voter: alice.bech32 } };
    const voted = (await chain.block([await web3Tx({ signer: alice, accountNumber: account(alice).accountNumber, sequence: 1n, msgs: [vote], aminoMsgs: [voteAmino], msgTypes: MSG_VOTE_TYPES })])).txResults[0]!;
    expect(voted.log).toBe('');
    expect(voted.code).toBe(0);
    const { value: stored } = await abciQuery(chain.app, '/cosmos.gov.v1beta1.Query/Vote', toBinary(QueryVoteRequestSchema, create(QueryVoteRequestSchema, { proposalId: id, voter: alice.bech32 })), QueryVoteResponseSchema);
    expect(stored?.vote?.options.map((o) => o.option)).toEqual([VoteOption.YES]);
  });

  test('bad input is refused with Ethermint’s errors and changes nothing', async () => {
    const accountNumber = account(alice).accountNumber;
    const base = { signer: alice, accountNumber, sequence: 0n, msgs: [msgSend(alice.bech32, bob.bech32, 10n)], aminoMsgs: [sendAmino(alice, bob, 10n)], msgTypes: MSG_SEND_TYPES };
    const prefix = `signature verification failed; please verify account number (${accountNumber}) and chain-id (${CHAIN_ID}): `;
    const before = { alice: balance(alice), bob: balance(bob) };

    const wrongChain = await web3Tx({ ...base, chainIdInOption: 1n });
    const otherKey = await web3Tx({ ...base, signingKey: mallory });
    // Signed for 10, carries 11.
    const tampered = await web3Tx({ ...base, msgs: [msgSend(alice.bech32, bob.bech32, 11n)] });
    const delegate = pack(MsgDelegateSchema, { delegatorAddress: alice.bech32, validatorAddress: validator.valoper, amount: coin(TOKEN) });
    const direct = await web3Tx({ ...base, signMode: SignMode.DIRECT });

    const results = (await chain.block([wrongChain, otherKey, tampered, direct])).txResults;
    for (const r of results) {
      expect(r.codespace).toBe('sdk');
      expect(r.code).toBe(4);
    }
    expect(results[0]!.log).toBe(`${prefix}invalid chain-id: invalid chain-id: unauthorized`);
    expect(results[1]!.log).toMatch(new RegExp(`^${escape(prefix)}feePayer pubkey EthPubKeySecp256k1\\{[0-9A-F]{66}\\} is different from transaction pubkey EthPubKeySecp256k1\\{[0-9A-F]{66}\\}: invalid pubkey: unauthorized$`));
    // A tampered message recovers some other key.
    expect(results[2]!.log).toMatch(new RegExp(`^${escape(prefix)}feePayer pubkey .* is different from transaction pubkey .*: invalid pubkey: unauthorized$`));
    expect(results[3]!.log).toBe(`${prefix}unexpected SignatureData *signing.SingleSignatureData: wrong SignMode: feature not supported: unauthorized`);

    // Mixed message types: the node hashes the tx with the first message's types (MsgSend), and
    // go-ethereum's encoder refuses the MsgDelegate under them, whatever the wallet signed.
    const sig = await walletSign(alice, MSG_SEND_TYPES, signDoc({ ...base, aminoMsgs: [base.aminoMsgs[0]!, base.aminoMsgs[0]!] }));
    const mixedTx = signTx({
      signer: alice,
      msgs: [base.msgs[0]!, delegate],
      sequence: 0n,
      accountNumber,
      fee: FEE,
      gas: GAS,
      signMode: SignMode.LEGACY_AMINO_JSON,
      extensionOptions: [pack(ExtensionOptionsWeb3TxSchema, { typedDataChainId: BigInt(EIP155), feePayer: alice.bech32, feePayerSig: sig })],
      signatures: [new Uint8Array(0)],
    });
    const mixedResult = (await chain.block([mixedTx])).txResults[0]!;
    expect(mixedResult.code).toBe(4);
    expect(mixedResult.log).toBe(`${prefix}provided data '<nil>' doesn't match type 'string': unauthorized`);

    expect(balance(alice)).toBe(before.alice);
    expect(balance(bob)).toBe(before.bob);
    expect(account(alice).sequence).toBe(0n);
  });

  test('v as 0/1 is accepted like 27/28; malformed Web3 txs are refused in CheckTx and in blocks', async () => {
    await chain.block([]);
    const accountNumber = account(alice).accountNumber;
    const base = { signer: alice, accountNumber, sequence: 0n, msgs: [msgSend(alice.bech32, bob.bech32, 10n)], aminoMsgs: [sendAmino(alice, bob, 10n)], msgTypes: MSG_SEND_TYPES };
    const prefix = `signature verification failed; please verify account number (${accountNumber}) and chain-id (${CHAIN_ID}): `;
    const before = balance(alice);

    const cases: [Uint8Array, number, string][] = [
      [await web3Tx({ ...base, chainIdInOption: 9001n }), 4, `${prefix}invalid chain-id: invalid chain-id: unauthorized`],
      [await web3Tx({ ...base, cosmosSignature: new Uint8Array(65).fill(1) }), 4, `${prefix}invalid signature value; EIP712 must have the cosmos transaction signature empty: maximum number of signatures exceeded: unauthorized`],
      [await web3Tx({ ...base, editSignature: (sig) => sig.subarray(0, 64) }), 4, `${prefix}signature length doesn't match typical [R||S||V] signature 65 bytes: tx intended signer does not match the given signer: unauthorized`],
      [await web3Tx({ ...base, editSignature: (sig) => Uint8Array.from([...sig.subarray(0, 64), 9]) }), 4, `${prefix}failed to recover delegated fee payer from sig: invalid signature recovery id: unauthorized`],
      [await web3Tx({ ...base, feePayer: bob }), 4, `${prefix}failed to verify delegated fee payer ${alice.bech32} signature: tx intended signer does not match the given signer: unauthorized`],
      [await web3Tx({ ...base, msgs: [pack(MsgEthereumTxSchema, { from: `0x${Buffer.from(alice.address).toString('hex')}` })], aminoMsgs: [] }), 29, "MsgEthereumTx needs to be contained within a tx with 'ExtensionOptionsEthereumTx' option: invalid type"],
    ];
    for (const [tx, code, log] of cases) {
      const check = await chain.app.checkTx({ tx, type: 'new' });
      expect(check.log).toBe(log);
      expect(check.code).toBe(code);
    }
    const results = (await chain.block(cases.map(([tx]) => tx))).txResults;
    results.forEach((r, i) => expect([r.code, r.log]).toEqual([cases[i]![1], cases[i]![2]]));
    expect(balance(alice)).toBe(before);
    expect(account(alice).sequence).toBe(0n);

    // MetaMask returns v = 27/28; a wallet returning 0/1 is accepted too.
    const zeroOne = await web3Tx({ ...base, editSignature: (sig) => Uint8Array.from([...sig.subarray(0, 64), sig[64]! - 27]) });
    const accepted = (await chain.block([zeroOne])).txResults[0]!;
    expect(accepted.log).toBe('');
    expect(balance(bob)).toBe(10n * TOKEN + 10n);
  });

  test('a plain Cosmos tx whose eth_secp256k1 signature is EIP-712 (Ethermint’s current and legacy encodings) is accepted', async () => {
    // The current encoding, written out the way a wallet front-end writes it: msgs flattened to
    // msg0…, types from the JSON with keys in descending order and indexed names.
    const current: TypeMap = {
      Tx: [
        { name: 'account_number', type: 'string' },
        { name: 'chain_id', type: 'string' },
        { name: 'fee', type: 'Fee' },
        { name: 'memo', type: 'string' },
        { name: 'sequence', type: 'string' },
        { name: 'msg0', type: 'TypeMsgSend0' },
      ],
      Fee: [
        { name: 'amount', type: 'Coin[]' },
        { name: 'gas', type: 'string' },
      ],
      Coin: [
        { name: 'denom', type: 'string' },
        { name: 'amount', type: 'string' },
      ],
      TypeMsgSend0: [
        { name: 'value', type: 'TypeValue0' },
        { name: 'type', type: 'string' },
      ],
      TypeValue0: [
        { name: 'to_address', type: 'string' },
        { name: 'from_address', type: 'string' },
        { name: 'amount', type: 'TypeValueAmount0[]' },
      ],
      TypeValueAmount0: [
        { name: 'denom', type: 'string' },
        { name: 'amount', type: 'string' },
      ],
    };
    const accountNumber = account(alice).accountNumber;
    const doc = (sequence: bigint, amount: bigint) => ({
      account_number: accountNumber.toString(),
      chain_id: CHAIN_ID,
      fee: { amount: [{ amount: FEE.toString(), denom: DENOM }], gas: GAS.toString() },
      memo: '',
      sequence: sequence.toString(),
      msg0: sendAmino(alice, bob, amount),
    });
    const plain = async (sequence: bigint, amount: bigint, signature: Uint8Array, signMode = SignMode.LEGACY_AMINO_JSON) =>
      signTx({ signer: alice, msgs: [msgSend(alice.bech32, bob.bech32, amount)], sequence, accountNumber, fee: FEE, gas: GAS, signMode, signatures: [signature] });
    const before = { alice: balance(alice), bob: balance(bob) };

    const sig0 = await signCosmosTypedData(alice.privateKey, EIP155, current, doc(0n, 3n), { primary: current });
    const sig1 = await signCosmosTypedData(alice.privateKey, EIP155, current, doc(1n, 4n), { primary: current });
    // The legacy encoding on a plain tx: fee payer = the first message's signer.
    const legacyDoc = { ...signDoc({ signer: alice, accountNumber, sequence: 2n, msgs: [], aminoMsgs: [sendAmino(alice, bob, 5n)], msgTypes: MSG_SEND_TYPES }) };
    const sig2 = await signCosmosTypedData(alice.privateKey, EIP155, MSG_SEND_TYPES, legacyDoc);
    const results = (await chain.block([await plain(0n, 3n, sig0), await plain(1n, 4n, sig1, SignMode.DIRECT), await plain(2n, 5n, sig2)])).txResults;
    results.forEach((r) => expect([r.code, r.log]).toEqual([0, '']));
    expect(balance(bob)).toBe(before.bob + 12n);
    expect(balance(alice)).toBe(before.alice - 12n - 3n * FEE);

    // Signed for 6, carries 7: the usual SDK refusal.
    const wrong = await signCosmosTypedData(alice.privateKey, EIP155, current, doc(3n, 6n), { primary: current });
    const refused = (await chain.block([await plain(3n, 7n, wrong)])).txResults[0]!;
    expect(refused.code).toBe(4);
    expect(refused.log).toBe(`signature verification failed; please verify account number (${accountNumber}), sequence (3) and chain-id (${CHAIN_ID}): unauthorized`);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
