/**
 * Sign modes and keys beyond a single DIRECT signer, through the app (CheckTx → FinalizeBlock →
 * Commit): SIGN_MODE_LEGACY_AMINO_JSON for eth_secp256k1 (keccak256) and secp256k1 (sha256)
 * keys, 2-of-3 /cosmos.crypto.multisig.LegacyAminoPubKey accounts (members in amino and direct
 * mode, too few or repeated signatures, a non-member), tx_sig_limit counting multisig members,
 * gas per signature, the fee-granter hook with a test fee-grant keeper, and the extension-option
 * router with a chain registered by the test.
 */
import { create, toBinary } from '@bufbuild/protobuf';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import { LegacyAminoPubKeySchema } from '../../../src/gen/cosmos/crypto/multisig/keys_pb.js';
import { CompactBitArraySchema, MultiSignatureSchema } from '../../../src/gen/cosmos/crypto/multisig/v1beta1/multisig_pb.js';
import { SignMode } from '../../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_MultiSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema, type ModeInfo } from '../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { EthAccountSchema } from '../../../src/gen/ethermint/types/v1/account_pb.js';
import { toAccountAddress } from '../../../src/keyring/address.js';
import { signMessage } from '../../../src/keyring/keys.js';
import { AminoJsonSigner } from '../../../src/node/codec/aminoJson.js';
import { anyPack } from '../../../src/node/codec/index.js';
import { aminoPubKeyAddress } from '../../../src/node/codec/aminoPubKey.js';
import { AccountKeeper } from '../../../src/node/modules/auth/keeper.js';
import { FEE_COLLECTOR_NAME } from '../../../src/node/modules/auth/keys.js';
import { BankKeeper } from '../../../src/node/modules/bank/keeper.js';
import { moduleAddress } from '../../../src/node/modules/shared/address.js';
import type { Coin } from '../../../src/node/modules/shared/coins.js';
import { Context, emptyHeader } from '../../../src/node/modules/shared/context.js';
import { registerError, SdkErrors } from '../../../src/node/modules/shared/errors.js';
import { EventManager } from '../../../src/node/modules/shared/events.js';
import { BasicGasMeter } from '../../../src/node/store/index.js';
import { consumeSignatureGas, setUpContext, type AnteDecorator, type AnteState, type FeeGrantKeeper } from '../../../src/node/app/ante/index.js';
import { decodeTx, signatureData, signDocBytes, type TxMsg } from '../../../src/node/app/tx.js';
import { VerifiedSignatureCache } from '../../../src/node/app/sigverify.js';
import { CHAIN_ID, TOKEN, buildAppState, coin, msgSend, pubKeyAnyOf, startChain, testKey, type Chain, type TestKey } from './helpers.js';

const alice = testKey('alice');
const bob = testKey('bob');
const carol = testKey('carol', 'secp256k1');
const dave = testKey('dave');
const erin = testKey('erin');
const validator = testKey('validator');
const FUNDS = 1000n * TOKEN;
const amino = new AminoJsonSigner();

/** A 2-of-3 multisig of alice (eth), carol (secp256k1), dave (eth), in that order. */
const members = [alice, carol, dave];
function multisigAny(threshold: number, keys: readonly TestKey[]): Any {
  return anyPack(LegacyAminoPubKeySchema, create(LegacyAminoPubKeySchema, { threshold, publicKeys: keys.map((k) => pubKeyAnyOf(k)!) }));
}
const multisig = multisigAny(2, members);
const multisigAddress = aminoPubKeyAddress(multisig);
const multisigBech32 = toAccountAddress(multisigAddress);
const wide = multisigAny(2, [alice, bob, carol, dave, erin, testKey('f'), testKey('g'), testKey('h')]);
const wideAddress = aminoPubKeyAddress(wide);

function single(mode: SignMode): ModeInfo {
  return create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode }) } });
}

interface Built {
  bodyBytes: Uint8Array;
  authInfoBytes: Uint8Array;
  aminoBytes: Uint8Array;
  directBytes: Uint8Array;
}

/** Body and auth info of a one-signer tx with `publicKey` and `modeInfo`, and both modes' sign bytes. */
function build(options: { msgs: Any[]; publicKey: Any | undefined; modeInfo: ModeInfo; sequence: bigint; accountNumber: bigint; fee?: bigint; gas?: bigint; memo?: string; payer?: string; granter?: string; extensionOptions?: Any[] }): Built {
  const fee = options.fee ?? 300_000n;
  const gas = options.gas ?? 300_000n;
  const body = create(TxBodySchema, { messages: options.msgs, memo: options.memo ?? '', extensionOptions: options.extensionOptions ?? [] });
  const authInfo = create(AuthInfoSchema, {
    signerInfos: [create(SignerInfoSchema, { publicKey: options.publicKey, modeInfo: options.modeInfo, sequence: options.sequence })],
    fee: create(FeeSchema, { amount: [coin(fee)], gasLimit: gas, payer: options.payer ?? '', granter: options.granter ?? '' }),
  });
  const bodyBytes = toBinary(TxBodySchema, body);
  const authInfoBytes = toBinary(AuthInfoSchema, authInfo);
  const aminoDoc = {
    chainId: CHAIN_ID,
    accountNumber: options.accountNumber,
    sequence: options.sequence,
    timeoutHeight: 0n,
    memo: body.memo,
    msgs: body.messages,
    fee: { amount: authInfo.fee!.amount, gasLimit: gas, payer: options.payer ?? '', granter: options.granter ?? '' },
  };
  // Messages without an amino name have no amino sign bytes (a test below relies on that).
  let aminoBytes: Uint8Array = new Uint8Array(0);
  try {
    aminoBytes = amino.signBytes(aminoDoc);
  } catch {
    // left empty
  }
  return { bodyBytes, authInfoBytes, aminoBytes, directBytes: signDocBytes(bodyBytes, authInfoBytes, CHAIN_ID, options.accountNumber) };
}

function raw(built: Built, signatures: Uint8Array[]): Uint8Array {
  return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes: built.bodyBytes, authInfoBytes: built.authInfoBytes, signatures }));
}

/** A single key's amino-signed tx. */
function aminoTx(key: TestKey, msgs: Any[], sequence: bigint, accountNumber: bigint, extra: { memo?: string; signWithSequence?: bigint; granter?: string } = {}): Uint8Array {
  const built = build({ msgs, publicKey: pubKeyAnyOf(key), modeInfo: single(SignMode.LEGACY_AMINO_JSON), sequence, accountNumber, memo: extra.memo, granter: extra.granter });
  const signed = extra.signWithSequence === undefined ? built : build({ msgs, publicKey: pubKeyAnyOf(key), modeInfo: single(SignMode.LEGACY_AMINO_JSON), sequence: extra.signWithSequence, accountNumber, memo: extra.memo });
  return raw(built, [signMessage(key.algo, key.privateKey, signed.aminoBytes)]);
}

interface MemberSignature {
  index: number;
  key: TestKey;
  mode: SignMode;
}

/** A multisig tx: `signers` (member index, key, mode), bits set for their indices. */
function multisigTx(options: { any?: Any; size?: number; msgs: Any[]; sequence: bigint; accountNumber: bigint; signers: MemberSignature[]; bits?: number[] }): Uint8Array {
  const size = options.size ?? members.length;
  const setBits = options.bits ?? options.signers.map((s) => s.index);
  const elems = new Uint8Array(Math.ceil(size / 8));
  for (const index of setBits) elems[index >> 3]! |= 1 << (7 - (index % 8));
  const modeInfo = create(ModeInfoSchema, {
    sum: {
      case: 'multi',
      value: create(ModeInfo_MultiSchema, { bitarray: create(CompactBitArraySchema, { elems, extraBitsStored: size % 8 }), modeInfos: options.signers.map((s) => single(s.mode)) }),
    },
  });
  const built = build({ msgs: options.msgs, publicKey: options.any ?? multisig, modeInfo, sequence: options.sequence, accountNumber: options.accountNumber });
  const signatures = options.signers.map((s) => {
    const signature = signMessage(s.key.algo, s.key.privateKey, s.mode === SignMode.DIRECT ? built.directBytes : built.aminoBytes);
    return s.key.algo === 'eth_secp256k1' ? signature.subarray(0, 64) : signature;
  });
  return raw(built, [toBinary(MultiSignatureSchema, create(MultiSignatureSchema, { signatures }))]);
}

function query(chain: Chain): { ctx: Context; accounts: AccountKeeper; bank: BankKeeper } {
  const ctx = new Context({ mode: 'query', multiStore: chain.store.branchCommitted(), header: emptyHeader(CHAIN_ID) });
  return { ctx, accounts: chain.app.manager.keeper<AccountKeeper>('auth'), bank: chain.app.manager.keeper<BankKeeper>('bank') };
}

function balance(chain: Chain, address: Uint8Array): bigint {
  const { ctx, bank } = query(chain);
  return bank.getBalance(ctx, address, 'attotoken');
}

function accountNumberOf(chain: Chain, address: Uint8Array): bigint {
  const { ctx, accounts } = query(chain);
  return accounts.getAccount(ctx, address)!.accountNumber;
}

describe('sign modes, multisig, fee grants and the ante router', () => {
  let chain: Chain;

  beforeEach(async () => {
    const multisigHolder = { address: multisigAddress } as TestKey;
    const wideHolder = { address: wideAddress } as TestKey;
    chain = await startChain(
      buildAppState({ accounts: [[alice, FUNDS], [carol, FUNDS], [multisigHolder, FUNDS], [wideHolder, FUNDS], [validator, 200n * TOKEN]], validator, selfDelegation: 100n * TOKEN }),
    );
    await chain.block([]);
  });

  afterEach(async () => {
    await chain.close();
  });

  async function deliver(bytes: Uint8Array): Promise<{ check: { code: number; log: string }; deliver: { code: number; log: string; gasUsed: bigint; events: { type: string; attributes: { key: string; value: string }[] }[] } }> {
    const check = await chain.app.checkTx({ tx: bytes, type: 'new' });
    const result = (await chain.block([bytes])).txResults[0]!;
    return { check: { code: check.code, log: check.log }, deliver: { code: result.code, log: result.log, gasUsed: result.gasUsed, events: result.events } };
  }

  test('amino JSON: an eth_secp256k1 key (keccak256) and a secp256k1 key (sha256) send tokens', async () => {
    const before = balance(chain, bob.address);
    const ethTx = aminoTx(alice, [msgSend(alice.bech32, bob.bech32, 1234n)], 0n, accountNumberOf(chain, alice.address), { memo: 'ledger <&>' });
    expect((await deliver(ethTx)).deliver).toMatchObject({ code: 0, log: '' });
    const cosmosTx = aminoTx(carol, [msgSend(carol.bech32, bob.bech32, 66n)], 0n, accountNumberOf(chain, carol.address));
    expect((await deliver(cosmosTx)).deliver).toMatchObject({ code: 0 });
    expect(balance(chain, bob.address)).toBe(before + 1234n + 66n);
  });

  test('amino JSON signed over another sequence → 4 with the SDK text for amino signers; nothing changes', async () => {
    const accountNumber = accountNumberOf(chain, alice.address);
    const before = balance(chain, alice.address);
    const bytes = aminoTx(alice, [msgSend(alice.bech32, bob.bech32, 1n)], 0n, accountNumber, { signWithSequence: 5n });
    const result = await deliver(bytes);
    const log = `signature verification failed; please verify account number (${accountNumber}), sequence (0) and chain-id (${CHAIN_ID}): unauthorized`;
    expect(result.check).toEqual({ code: 4, log });
    expect(result.deliver).toMatchObject({ code: 4, log });
    expect(balance(chain, alice.address)).toBe(before);
  });

  test('a mode the node does not accept → 4 naming it', async () => {
    const built = build({ msgs: [msgSend(alice.bech32, bob.bech32, 1n)], publicKey: pubKeyAnyOf(alice), modeInfo: single(SignMode.EIP_191), sequence: 0n, accountNumber: 0n });
    const result = await deliver(raw(built, [signMessage(alice.algo, alice.privateKey, built.aminoBytes)]));
    expect(result.deliver.code).toBe(4);
    expect(result.deliver.log).toContain('(unsupported sign mode SIGN_MODE_EIP_191)');
  });

  test('2-of-3 multisig: two members in amino mode send tokens; the account keeps the multisig key; gas per signature', async () => {
    const accountNumber = accountNumberOf(chain, multisigAddress);
    const beforeBob = balance(chain, bob.address);
    const beforeMulti = balance(chain, multisigAddress);
    const bytes = multisigTx({
      msgs: [msgSend(multisigBech32, bob.bech32, 777n)],
      sequence: 0n,
      accountNumber,
      signers: [
        { index: 0, key: alice, mode: SignMode.LEGACY_AMINO_JSON },
        { index: 1, key: carol, mode: SignMode.LEGACY_AMINO_JSON },
      ],
    });
    const result = await deliver(bytes);
    expect(result.check).toEqual({ code: 0, log: '' });
    expect(result.deliver.code).toBe(0);
    expect(balance(chain, bob.address)).toBe(beforeBob + 777n);
    expect(balance(chain, multisigAddress)).toBe(beforeMulti - 777n - 300_000n);
    const { ctx, accounts } = query(chain);
    const account = accounts.getAccount(ctx, multisigAddress)!;
    expect(account.sequence).toBe(1n);
    expect(account.pubKey?.typeUrl).toBe('/cosmos.crypto.multisig.LegacyAminoPubKey');
    expect(account.pubKey?.multisig?.threshold).toBe(2);
    // Events: acc_seq, each member's signature, then the aggregate MultiSignature.
    const signatures = result.deliver.events.filter((e) => e.type === 'tx' && e.attributes[0]?.key === 'signature').map((e) => e.attributes[0]!.value);
    expect(signatures).toHaveLength(3);

    // The same account again, now with the key stored, signed by members 1 (direct) and 2 (amino).
    const second = multisigTx({
      msgs: [msgSend(multisigBech32, bob.bech32, 1n)],
      sequence: 1n,
      accountNumber,
      signers: [
        { index: 1, key: carol, mode: SignMode.DIRECT },
        { index: 2, key: dave, mode: SignMode.LEGACY_AMINO_JSON },
      ],
    });
    expect((await deliver(second)).deliver.code).toBe(0);
    expect(balance(chain, bob.address)).toBe(beforeBob + 778n);
  });

  test('gas for a multisig is the sum over the members that signed (eth 21000 + secp256k1 1000)', () => {
    const meter = BasicGasMeter.fromLimit(1_000_000n);
    const tx = decodeTx(
      multisigTx({ msgs: [msgSend(multisigBech32, bob.bech32, 1n)], sequence: 0n, accountNumber: 0n, signers: [{ index: 0, key: alice, mode: SignMode.LEGACY_AMINO_JSON }, { index: 1, key: carol, mode: SignMode.LEGACY_AMINO_JSON }] }),
    );
    const params = { maxMemoCharacters: 256n, txSigLimit: 7n, txSizeCostPerByte: 10n, sigVerifyCostEd25519: 590n, sigVerifyCostSecp256k1: 1000n };
    const pubKey = tx.signerInfos[0]!.pubKey!;
    consumeSignatureGas(meter, pubKey, signatureData(tx.signerInfos[0]!.mode, tx.signatures[0]!), params);
    expect(meter.gasConsumed()).toBe(22_000);
  });

  test('multisig failures: too few signatures, a repeated member, a non-member, a bit array of the wrong size → 4 naming it', async () => {
    const accountNumber = accountNumberOf(chain, multisigAddress);
    const msgs = [msgSend(multisigBech32, bob.bech32, 5n)];
    const before = balance(chain, multisigAddress);
    const prefix = `signature verification failed; please verify account number (${accountNumber}) and chain-id (${CHAIN_ID}): `;
    const tooFew = multisigTx({ msgs, sequence: 0n, accountNumber, signers: [{ index: 0, key: alice, mode: SignMode.LEGACY_AMINO_JSON }] });
    expect((await deliver(tooFew)).deliver).toMatchObject({ code: 4, log: `${prefix}(signature size is incorrect 1): unauthorized` });
    // The same member twice: one bit, two signatures.
    const repeated = multisigTx({ msgs, sequence: 0n, accountNumber, bits: [0], signers: [{ index: 0, key: alice, mode: SignMode.LEGACY_AMINO_JSON }, { index: 0, key: alice, mode: SignMode.LEGACY_AMINO_JSON }] });
    expect((await deliver(repeated)).deliver).toMatchObject({ code: 4, log: `${prefix}(not enough signatures set, have 1, expected 2): unauthorized` });
    // erin is not a member: her signature in member 2's place does not verify (amino only: the SDK's text without a reason).
    const outsider = multisigTx({ msgs, sequence: 0n, accountNumber, signers: [{ index: 0, key: alice, mode: SignMode.LEGACY_AMINO_JSON }, { index: 2, key: erin, mode: SignMode.LEGACY_AMINO_JSON }] });
    expect((await deliver(outsider)).deliver).toMatchObject({ code: 4, log: `signature verification failed; please verify account number (${accountNumber}), sequence (0) and chain-id (${CHAIN_ID}): unauthorized` });
    const wrongSize = multisigTx({ msgs, sequence: 0n, accountNumber, size: 4, signers: [{ index: 0, key: alice, mode: SignMode.LEGACY_AMINO_JSON }, { index: 1, key: carol, mode: SignMode.LEGACY_AMINO_JSON }] });
    expect((await deliver(wrongSize)).deliver).toMatchObject({ code: 4, log: `${prefix}(bit array size is incorrect, expecting: 3): unauthorized` });
    expect(balance(chain, multisigAddress)).toBe(before);
  });

  test('tx_sig_limit counts multisig members: a 2-of-8 key → 14', async () => {
    const bytes = multisigTx({ any: wide, size: 8, msgs: [msgSend(toAccountAddress(wideAddress), bob.bech32, 1n)], sequence: 0n, accountNumber: accountNumberOf(chain, wideAddress), signers: [{ index: 0, key: alice, mode: SignMode.LEGACY_AMINO_JSON }, { index: 1, key: bob, mode: SignMode.LEGACY_AMINO_JSON }] });
    expect((await deliver(bytes)).deliver).toMatchObject({ code: 14, log: 'signatures: 8, limit: 7: maximum number of signatures exceeded' });
  });

  test('a fee granter that gave no allowance → feegrant 5 (the app wires the feegrant module\'s keeper into the hook)', async () => {
    const bytes = aminoTx(alice, [msgSend(alice.bech32, bob.bech32, 1n)], 0n, accountNumberOf(chain, alice.address), { granter: carol.bech32 });
    expect((await deliver(bytes)).deliver).toMatchObject({ code: 5, log: `${carol.bech32} does not allow to pay fees for ${alice.bech32}: fee-grant not found: no allowance` });
  });

  test('fee granter hook: the keeper is asked, the granter pays; a refusal passes its error through, wrapped as the SDK does', async () => {
    const noAllowance = registerError('feegrant-test', 2, 'fee-grant not found');
    const calls: { granter: string; grantee: string; fee: readonly Coin[]; msgs: readonly TxMsg[] }[] = [];
    let allow = true;
    const keeper: FeeGrantKeeper = {
      useGrantedFees(_ctx, granter, grantee, fee, msgs) {
        calls.push({ granter: toAccountAddress(granter), grantee: toAccountAddress(grantee), fee, msgs });
        if (!allow) throw noAllowance.wrap('no allowance');
      },
    };
    chain.app.ante.configure({ feeGrantKeeper: keeper });
    const aliceNumber = accountNumberOf(chain, alice.address);
    const before = { alice: balance(chain, alice.address), carol: balance(chain, carol.address), collector: balance(chain, moduleAddress(FEE_COLLECTOR_NAME)) };
    const granted = await deliver(aminoTx(alice, [msgSend(alice.bech32, bob.bech32, 10n)], 0n, aliceNumber, { granter: carol.bech32 }));
    expect(granted.deliver.code).toBe(0);
    expect(calls.at(-1)).toMatchObject({ granter: carol.bech32, grantee: alice.bech32, fee: [{ denom: 'attotoken', amount: 300_000n }] });
    expect(calls.at(-1)!.msgs[0]!.typeUrl).toBe('/cosmos.bank.v1beta1.MsgSend');
    expect(balance(chain, alice.address)).toBe(before.alice - 10n);
    expect(balance(chain, carol.address)).toBe(before.carol - 300_000n);
    expect(balance(chain, moduleAddress(FEE_COLLECTOR_NAME)) - before.collector).toBe(300_000n);
    const feeEvent = granted.deliver.events.find((e) => e.type === 'tx' && e.attributes.some((a) => a.key === 'fee_payer'));
    expect(feeEvent?.attributes.find((a) => a.key === 'fee_payer')?.value).toBe(carol.bech32);

    allow = false;
    const refused = await deliver(aminoTx(alice, [msgSend(alice.bech32, bob.bech32, 10n)], 1n, aliceNumber, { granter: carol.bech32 }));
    expect(refused.deliver).toMatchObject({ code: 2, log: `${carol.bech32} does not allow to pay fees for ${alice.bech32}: no allowance: fee-grant not found` });
    expect(balance(chain, carol.address)).toBe(before.carol - 300_000n);
  });

  test('an amino-signed message type with no amino name → 4 naming the type (the ante handler, past the message router)', () => {
    // EthAccount has no (amino.name); the app has no handler for it, so drive the ante handler directly.
    const accountNumber = accountNumberOf(chain, alice.address);
    const unnamed = anyOf('/ethermint.types.v1.EthAccount', toBinary(EthAccountSchema, create(EthAccountSchema, {})));
    const built = build({ msgs: [unnamed], publicKey: pubKeyAnyOf(alice), modeInfo: single(SignMode.LEGACY_AMINO_JSON), sequence: 0n, accountNumber, payer: alice.bech32 });
    const tx = decodeTx(raw(built, [new Uint8Array(65)]));
    const state: AnteState = {
      ctx: new Context({ mode: 'check', multiStore: chain.store.branchCommitted(), header: { ...emptyHeader(CHAIN_ID, chain.height), height: chain.height }, events: new EventManager() }),
      tx,
      simulate: false,
      priority: 0n,
    };
    const env = { accountKeeper: chain.app.manager.keeper<AccountKeeper>('auth'), bankKeeper: chain.app.manager.keeper<BankKeeper>('bank'), minGasPrices: [], sigCache: new VerifiedSignatureCache(0), maxBlockGas: -1n };
    expect(() => chain.app.ante.run(state, env)).toThrow(
      `signature verification failed; please verify account number (${accountNumber}) and chain-id (${CHAIN_ID}): (/ethermint.types.v1.EthAccount has no amino name, so it cannot be signed with SIGN_MODE_LEGACY_AMINO_JSON): unauthorized`,
    );
  });

  test('extension-option router: a registered option runs its own chain; an unregistered one is still 31; a type URL registers once', async () => {
    const seen: string[] = [];
    const chargeAndRecord: AnteDecorator = {
      name: 'TestChain',
      handle(state) {
        seen.push(state.tx.extensionOptions[0]!.typeUrl);
        state.ctx.gasMeter.consumeGas(12_345, 'test chain');
        if (state.tx.memo === 'refuse') throw SdkErrors.Unauthorized.wrap('the test chain refuses this tx');
      },
    };
    chain.app.ante.router.register('/test.v1.ExtensionOptionsTestTx', [setUpContext, chargeAndRecord]);
    expect(() => chain.app.ante.router.register('/test.v1.ExtensionOptionsTestTx', [setUpContext])).toThrow('already registered');
    const option = anyOf('/test.v1.ExtensionOptionsTestTx', new Uint8Array(0));
    // Unsigned: the test chain does no signature checks, so the default chain's 15 would show if it ran.
    const routed = build({ msgs: [msgSend(alice.bech32, bob.bech32, 1n)], publicKey: undefined, modeInfo: single(SignMode.DIRECT), sequence: 0n, accountNumber: 0n, extensionOptions: [option] });
    const check = await chain.app.checkTx({ tx: raw(routed, [new Uint8Array(0)]), type: 'new' });
    expect({ code: check.code, gasUsed: check.gasUsed }).toEqual({ code: 0, gasUsed: 12_345n });
    expect(seen).toEqual(['/test.v1.ExtensionOptionsTestTx']);
    const refusedTx = build({ msgs: [msgSend(alice.bech32, bob.bech32, 1n)], publicKey: undefined, modeInfo: single(SignMode.DIRECT), sequence: 0n, accountNumber: 0n, memo: 'refuse', extensionOptions: [option] });
    expect((await chain.app.checkTx({ tx: raw(refusedTx, [new Uint8Array(0)]), type: 'new' })).log).toBe('the test chain refuses this tx: unauthorized');
    const unknown = build({ msgs: [msgSend(alice.bech32, bob.bech32, 1n)], publicKey: pubKeyAnyOf(alice), modeInfo: single(SignMode.DIRECT), sequence: 0n, accountNumber: 0n, extensionOptions: [anyOf('/nobody.Registered', new Uint8Array(0))] });
    const result = await chain.app.checkTx({ tx: raw(unknown, [new Uint8Array(65)]), type: 'new' });
    expect({ code: result.code, log: result.log }).toEqual({ code: 31, log: 'unknown extension options' });
  });
});

function anyOf(typeUrl: string, value: Uint8Array): Any {
  return create(AnySchema, { typeUrl, value });
}
