/**
 * Fixtures for the app tests: deterministic keys (src/keyring), signed txs built from the
 * generated protobuf types, a genesis made with the app's own helpers (funded EthAccount keys and
 * a gentx), and a chain driver (InitChain → FinalizeBlock → Commit) over memory or LevelDB.
 */
import { createPrivateKey, createPublicKey } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create, fromBinary, toBinary, type DescMessage, type JsonValue, type MessageInitShape, type MessageShape } from '@bufbuild/protobuf';
import type { Any } from '@bufbuild/protobuf/wkt';
import { CoinSchema } from '../../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { MsgSendSchema } from '../../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { PubKeySchema as Ed25519PubKeySchema } from '../../../src/gen/cosmos/crypto/ed25519/keys_pb.js';
import { PubKeySchema as Secp256k1PubKeySchema } from '../../../src/gen/cosmos/crypto/secp256k1/keys_pb.js';
import { PubKeySchema as EvmEthPubKeySchema } from '../../../src/gen/cosmos/evm/crypto/v1/ethsecp256k1/keys_pb.js';
import { CommissionRatesSchema, DescriptionSchema } from '../../../src/gen/cosmos/staking/v1beta1/staking_pb.js';
import { MsgCreateValidatorSchema } from '../../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { SignMode } from '../../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { AuthInfoSchema, FeeSchema, ModeInfo_SingleSchema, ModeInfoSchema, SignerInfoSchema, TxBodySchema, TxRawSchema, TxSchema } from '../../../src/gen/cosmos/tx/v1beta1/tx_pb.js';
import { PubKeySchema as EthPubKeySchema } from '../../../src/gen/ethermint/crypto/v1/ethsecp256k1/keys_pb.js';
import { sha256 } from '../../../src/keyring/hash.js';
import { keyPairFromPrivateKey, signMessage } from '../../../src/keyring/keys.js';
import { toAccountAddress, toValidatorOperatorAddress } from '../../../src/keyring/address.js';
import type { KeyAlgo } from '../../../src/keyring/types.js';
import type { ConsensusParams, RequestFinalizeBlock, ResponseFinalizeBlock, ResponseInitChain, ResponseQuery } from '../../../src/node/abci/types.js';
import { anyPack, legacyDecToWire, registry, toGatewayJson } from '../../../src/node/codec/index.js';
import { defaultConsensusParams } from '../../../src/node/consensus/types/params.js';
import { memoryDatabase, openDatabase, type Database } from '../../../src/node/store/db/database.js';
import { App, addGenesisAccount, collectGentxs, defaultAppState, openApp, signDocBytes, type AppOptions, type AppStateJson } from '../../../src/node/app/index.js';
import type { RootMultiStore } from '../../../src/node/store/index.js';

export const CHAIN_ID = 'testnet_9000-1';
export const DENOM = 'attotoken';
export const TOKEN = 10n ** 18n;
export const GENESIS_TIME = new Date('2024-01-01T00:00:00Z');

export interface TestKey {
  algo: KeyAlgo;
  privateKey: Uint8Array;
  pubKey: Uint8Array;
  address: Uint8Array;
  bech32: string;
  valoper: string;
}

/** A deterministic key from a label. */
export function testKey(label: string, algo: KeyAlgo = 'eth_secp256k1'): TestKey {
  const privateKey = sha256(new TextEncoder().encode(`tokend-test-key:${label}`));
  const pair = keyPairFromPrivateKey(algo, privateKey);
  return { algo, privateKey, pubKey: pair.pubKey, address: pair.address, bech32: toAccountAddress(pair.address), valoper: toValidatorOperatorAddress(pair.address) };
}

/** A deterministic ed25519 consensus key (32-byte public key). */
export function consensusKey(label: string): Uint8Array {
  const seed = Buffer.from(sha256(new TextEncoder().encode(`tokend-test-cons:${label}`)));
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]);
  const spki = createPublicKey(createPrivateKey({ key: der, format: 'der', type: 'pkcs8' })).export({ format: 'der', type: 'spki' });
  return Uint8Array.from(spki.subarray(spki.length - 32));
}

export function coin(amount: bigint, denom = DENOM): MessageShape<typeof CoinSchema> {
  return create(CoinSchema, { denom, amount: amount.toString() });
}

export function pack<D extends DescMessage>(schema: D, init: MessageInitShape<D>): Any {
  return anyPack(schema, create(schema, init));
}

export function msgSend(from: string, to: string, amount: bigint, denom = DENOM): Any {
  return pack(MsgSendSchema, { fromAddress: from, toAddress: to, amount: [coin(amount, denom)] });
}

export type PubKeyFlavour = 'ethermint' | 'evm' | 'none';

export interface TxOptions {
  signer: TestKey;
  msgs: Any[];
  sequence: bigint;
  accountNumber: bigint;
  chainId?: string;
  fee?: bigint;
  feeDenom?: string;
  gas?: bigint;
  memo?: string;
  timeoutHeight?: bigint;
  signMode?: SignMode;
  pubKey?: PubKeyFlavour;
  /** 65 (r||s||v, keyring default) or 64 (r||s, as CosmJS). */
  signatureLength?: 64 | 65;
  /** Replace the signature (e.g. [] for unsigned, garbage for bad). */
  signatures?: Uint8Array[];
  /** Sign with this key instead of `signer` (mis-signed). */
  signWith?: TestKey;
  extensionOptions?: Any[];
  payer?: string;
  /** Fee.granter: whose fee allowance pays (x/feegrant). */
  granter?: string;
}

export function pubKeyAnyOf(key: TestKey, flavour: PubKeyFlavour = 'ethermint'): Any | undefined {
  if (flavour === 'none') return undefined;
  if (key.algo === 'secp256k1') return pack(Secp256k1PubKeySchema, { key: key.pubKey });
  return flavour === 'evm' ? pack(EvmEthPubKeySchema, { key: key.pubKey }) : pack(EthPubKeySchema, { key: key.pubKey });
}

/** Body and auth-info bytes of a tx (one signer). */
export function txParts(options: TxOptions): { bodyBytes: Uint8Array; authInfoBytes: Uint8Array } {
  const body = create(TxBodySchema, {
    messages: options.msgs,
    memo: options.memo ?? '',
    timeoutHeight: options.timeoutHeight ?? 0n,
    extensionOptions: options.extensionOptions ?? [],
  });
  const fee = options.fee ?? 0n;
  const authInfo = create(AuthInfoSchema, {
    signerInfos: [
      create(SignerInfoSchema, {
        publicKey: pubKeyAnyOf(options.signer, options.pubKey),
        modeInfo: create(ModeInfoSchema, { sum: { case: 'single', value: create(ModeInfo_SingleSchema, { mode: options.signMode ?? SignMode.DIRECT }) } }),
        sequence: options.sequence,
      }),
    ],
    fee: create(FeeSchema, { amount: fee === 0n ? [] : [coin(fee, options.feeDenom ?? DENOM)], gasLimit: options.gas ?? 200_000n, payer: options.payer ?? '', granter: options.granter ?? '' }),
  });
  return { bodyBytes: toBinary(TxBodySchema, body), authInfoBytes: toBinary(AuthInfoSchema, authInfo) };
}

/** A signed TxRaw (SIGN_MODE_DIRECT over SignDoc{body, auth_info, chain_id, account_number}). */
export function signTx(options: TxOptions): Uint8Array {
  const parts = txParts(options);
  let signatures = options.signatures;
  if (signatures === undefined) {
    const key = options.signWith ?? options.signer;
    const doc = signDocBytes(parts.bodyBytes, parts.authInfoBytes, options.chainId ?? CHAIN_ID, options.accountNumber);
    const signature = signMessage(key.algo, key.privateKey, doc);
    signatures = [options.signatureLength === 64 ? signature.subarray(0, 64) : signature];
  }
  return toBinary(TxRawSchema, create(TxRawSchema, { ...parts, signatures }));
}

/** A gentx (SDK tx JSON) creating a validator with `amount` self-delegation, signed at account number 0. */
export function makeGentx(key: TestKey, consKey: Uint8Array, amount: bigint, options: { chainId?: string; moniker?: string; signWith?: TestKey; unsigned?: boolean } = {}): JsonValue {
  const msg = pack(MsgCreateValidatorSchema, {
    description: create(DescriptionSchema, { moniker: options.moniker ?? 'validator-1' }),
    commission: create(CommissionRatesSchema, { rate: legacyDecToWire('0.1'), maxRate: legacyDecToWire('0.2'), maxChangeRate: legacyDecToWire('0.01') }),
    minSelfDelegation: '1',
    delegatorAddress: '',
    validatorAddress: key.valoper,
    pubkey: pack(Ed25519PubKeySchema, { key: consKey }),
    value: coin(amount),
  });
  const txOptions: TxOptions = { signer: key, msgs: [msg], sequence: 0n, accountNumber: 0n, chainId: options.chainId, memo: 'nodeid@127.0.0.1:26656', signWith: options.signWith, signatures: options.unsigned ? [] : undefined };
  const raw = fromBinary(TxRawSchema, signTx(txOptions));
  const tx = create(TxSchema, { body: fromBinary(TxBodySchema, raw.bodyBytes), authInfo: fromBinary(AuthInfoSchema, raw.authInfoBytes), signatures: raw.signatures });
  return toGatewayJson(TxSchema, tx, { registry });
}

export interface GenesisSpec {
  accounts: [TestKey, bigint][];
  validator: TestKey;
  selfDelegation: bigint;
  chainId?: string;
}

/** app_state built with the app's helpers: funded accounts, then the validator's gentx. */
export function buildAppState(spec: GenesisSpec): AppStateJson {
  let state: AppStateJson = defaultAppState({ denom: DENOM });
  for (const [key, amount] of spec.accounts) state = addGenesisAccount(state, key.address, [{ denom: DENOM, amount }]);
  return collectGentxs(state, [makeGentx(spec.validator, consensusKey(spec.validator.bech32), spec.selfDelegation, { chainId: spec.chainId })], spec.chainId ?? CHAIN_ID);
}

export interface Chain {
  app: App;
  store: RootMultiStore;
  db: Database;
  height: number;
  init: ResponseInitChain;
  /** FinalizeBlock(next height) + Commit; `extra` overrides request fields (votes, misbehavior …). */
  block(txs: Uint8Array[], extra?: Partial<RequestFinalizeBlock>): Promise<ResponseFinalizeBlock>;
  close(): Promise<void>;
}

export async function startChain(appState: AppStateJson, options: { db?: Database; appOptions?: Partial<AppOptions>; chainId?: string; consensusParams?: ConsensusParams } = {}): Promise<Chain> {
  const db = options.db ?? memoryDatabase();
  const chainId = options.chainId ?? CHAIN_ID;
  const opened = await openApp(db, { chainId, sigVerifyWorkers: 0, ...options.appOptions }, { syncCommits: false });
  const init = await opened.app.initChain({
    time: GENESIS_TIME,
    chainId,
    consensusParams: options.consensusParams ?? defaultConsensusParams(),
    validators: [],
    appStateBytes: new TextEncoder().encode(JSON.stringify(appState)),
    initialHeight: 1,
  });
  return chainDriver(opened.app, opened.store, db, init, opened.close);
}

export function chainDriver(app: App, store: RootMultiStore, db: Database, init: ResponseInitChain, close: () => Promise<void>): Chain {
  const chain: Chain = {
    app,
    store,
    db,
    height: store.latestVersion(),
    init,
    async block(txs, extra = {}) {
      const height = chain.height + 1;
      const response = await app.finalizeBlock({
        txs,
        decidedLastCommit: { round: 0, votes: [] },
        misbehavior: [],
        hash: sha256(new TextEncoder().encode(`block-${height}`)),
        height,
        time: new Date(GENESIS_TIME.getTime() + height * 1000),
        nextValidatorsHash: new Uint8Array(32),
        proposerAddress: new Uint8Array(20),
        ...extra,
      });
      await app.commit();
      chain.height = height;
      return response;
    },
    close,
  };
  return chain;
}

/** ABCI query through the router: encodes the request with the route's schema, decodes the answer. */
export async function abciQuery<Res extends DescMessage>(
  app: App,
  path: string,
  request: Uint8Array,
  responseSchema: Res,
  height = 0,
): Promise<{ response: ResponseQuery; value: MessageShape<Res> | undefined }> {
  const response = await app.query({ path, data: request, height, prove: false });
  return { response, value: response.code === 0 ? fromBinary(responseSchema, response.value) : undefined };
}

export async function tempLevelDb(): Promise<{ db: Database; dir: string; reopen(): Promise<Database>; cleanup(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'tokend-app-'));
  const fixture = {
    db: await openDatabase(dir),
    dir,
    async reopen(): Promise<Database> {
      await fixture.db.close();
      fixture.db = await openDatabase(dir);
      return fixture.db;
    },
    async cleanup(): Promise<void> {
      await fixture.db.close().catch(() => undefined);
      await rm(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}
