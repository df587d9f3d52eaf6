/**
 * EIP-712 against a node started by the test: a bank MsgSend signed as typed data by an Ethereum
 * wallet (viem's signTypedData, the same digest as an ethers v6 wallet; test/helpers/eip712.ts),
 * carried in a Cosmos tx with ExtensionOptionsWeb3Tx and broadcast through the REST gateway the
 * way a web wallet does (POST /cosmos/tx/v1beta1/txs), committed, balances changed exactly; one
 * signed for another chain id is refused at broadcast with Ethermint's error and changes nothing.
 * The chain id is "testnet" (not Ethermint's name_N-V form), so the EIP-155 chain id comes from
 * the genesis evm params (9000).
 */
import { jest } from '@jest/globals';
import { create, toBinary } from '@bufbuild/protobuf';
import { anyPack } from '../../src/node/codec/index.js';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { SignMode } from '../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema } from '../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { ExtensionOptionsWeb3TxSchema } from '../../src/gen/ethermint/types/v1/web3_pb.js';
import { SigningKey, getBytes } from 'ethers';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { MSG_SEND_TYPES, signCosmosTypedData } from '../helpers/eip712.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(180_000);

const JUNK_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ALICE = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';
// Hardhat's account #1 (0x7099…79C8): no account yet.
const BOB = 'token1wzvhjux9rqfdcwspp37srdgwp5tac7wgf3j56v';
const CHAIN_ID = 'testnet';
const EIP155 = 9000;
const DENOM = 'attotoken';
const GAS = 200_000n;
const FEE = 4_000_000_000_000_000n;

describe('EIP-712 signed Cosmos tx against a running node', () => {
  let bg: BackgroundNode | undefined;

  async function get(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
    const response = await fetch(`${bg!.api}${path}`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  async function balance(address: string): Promise<bigint> {
    const { body } = await get(`/cosmos/bank/v1beta1/balances/${address}`);
    const coins = body['balances'] as { denom: string; amount: string }[];
    return BigInt(coins.find((c) => c.denom === DENOM)?.amount ?? '0');
  }

  async function accountOf(address: string): Promise<{ accountNumber: bigint; sequence: bigint }> {
    const { body } = await get(`/cosmos/auth/v1beta1/accounts/${address}`);
    const account = body['account'] as Record<string, unknown>;
    const base = (account['base_account'] ?? account) as { account_number: string; sequence: string };
    return { accountNumber: BigInt(base.account_number), sequence: BigInt(base.sequence) };
  }

  async function broadcast(txBytes: Uint8Array): Promise<{ code: number; codespace: string; raw_log: string; txhash: string }> {
    const response = await fetch(`${bg!.api}/cosmos/tx/v1beta1/txs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tx_bytes: Buffer.from(txBytes).toString('base64'), mode: 'BROADCAST_MODE_SYNC' }),
    });
    const body = (await response.json()) as { tx_response: { code: number; codespace: string; raw_log: string; txhash: string } };
    return body.tx_response;
  }

  async function committed(hash: string): Promise<{ code: number; raw_log: string; height: string }> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const { status, body } = await get(`/cosmos/tx/v1beta1/txs/${hash}`);
      if (status === 200) return body['tx_response'] as { code: number; raw_log: string; height: string };
      if (Date.now() > deadline) throw new Error(`tx ${hash} was not committed`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** What a web wallet builds: the amino sign doc, MetaMask's signature over its typed data, the TxRaw. */
  async function web3Send(amount: bigint, accountNumber: bigint, sequence: bigint, typedDataChainId = EIP155): Promise<Uint8Array> {
    const doc = {
      account_number: accountNumber.toString(),
      chain_id: CHAIN_ID,
      fee: { amount: [{ amount: FEE.toString(), denom: DENOM }], gas: GAS.toString(), feePayer: ALICE },
      memo: 'MetaMask',
      msgs: [{ type: 'cosmos-sdk/MsgSend', value: { amount: [{ amount: amount.toString(), denom: DENOM }], from_address: ALICE, to_address: BOB } }],
      sequence: sequence.toString(),
    };
    const signature = await signCosmosTypedData(getBytes(JUNK_KEY), typedDataChainId, MSG_SEND_TYPES, doc);
    const msg = anyPack(MsgSendSchema, create(MsgSendSchema, { fromAddress: ALICE, toAddress: BOB, amount: [create(CoinSchema, { denom: DENOM, amount: amount.toString() })] }));
    const option = anyPack(ExtensionOptionsWeb3TxSchema, create(ExtensionOptionsWeb3TxSchema, { typedDataChainId: BigInt(typedDataChainId), feePayer: ALICE, feePayerSig: signature }));
    const bodyBytes = toBinary(TxBodySchema, create(TxBodySchema, { messages: [msg], memo: 'MetaMask', extensionOptions: [option] }));
    const pubKey = anyPack(EthPubKeySchema, create(EthPubKeySchema, { key: getBytes(SigningKey.computePublicKey(JUNK_KEY, true)) }));
    const authInfoBytes = toBinary(
      AuthInfoSchema,
      create(AuthInfoSchema, {
        signerInfos: [create(SignerInfoSchema, { publicKey: pubKey, modeInfo: create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode: SignMode.LEGACY_AMINO_JSON }) } }), sequence })],
        fee: create(FeeSchema, { amount: [create(CoinSchema, { denom: DENOM, amount: FEE.toString() })], gasLimit: GAS }),
      }),
    );
    return toBinary(TxRawSchema, create(TxRawSchema, { bodyBytes, authInfoBytes, signatures: [new Uint8Array(0)] }));
  }

  beforeAll(async () => {
    // Chain id testnet (CHAIN_ID); alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    const home = await validatorHome('tokend-eip712-');
    fastBlocks(home);
    bg = await startOnFreePorts(home, 2);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('a MsgSend signed with signTypedData is accepted and committed; balances change exactly', async () => {
    const { accountNumber, sequence } = await accountOf(ALICE);
    const before = { alice: await balance(ALICE), bob: await balance(BOB) };
    const amount = 123_456_789n;
    const sent = await broadcast(await web3Send(amount, accountNumber, sequence));
    expect(sent.raw_log).toBe('');
    expect(sent.code).toBe(0);
    const result = await committed(sent.txhash);
    expect(result.code).toBe(0);
    expect(await balance(BOB)).toBe(before.bob + amount);
    expect(await balance(ALICE)).toBe(before.alice - amount - FEE);
    expect((await accountOf(ALICE)).sequence).toBe(sequence + 1n);
  });

  test('signed for another chain id: refused at broadcast with Ethermint’s error, nothing changes', async () => {
    const { accountNumber, sequence } = await accountOf(ALICE);
    const before = await balance(ALICE);
    const refused = await broadcast(await web3Send(1n, accountNumber, sequence, 1));
    expect(refused.code).toBe(4);
    expect(refused.codespace).toBe('sdk');
    expect(refused.raw_log).toBe(`signature verification failed; please verify account number (${accountNumber}) and chain-id (${CHAIN_ID}): invalid chain-id: invalid chain-id: unauthorized`);
    expect(await balance(ALICE)).toBe(before);
    expect((await accountOf(ALICE)).sequence).toBe(sequence);
  });
});
