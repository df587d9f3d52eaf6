/**
 * The client's tx pipeline shared by every `tx` command: resolve the signer, look up its account
 * number and sequence (unless --offline), estimate gas (--gas auto: simulate × adjustment),
 * compute fees (--fees or --gas-prices × gas), sign (--sign-mode direct, the default, or
 * amino-json), then broadcast in the chosen mode — or stop early for --generate-only / --dry-run.
 * A multisig key cannot sign by itself: with it, only --generate-only (and --dry-run) work, and
 * the unsigned tx goes to its members (see multisig.ts).
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { anyIs } from '../codec/any.js';
import type { Any } from '@bufbuild/protobuf/wkt';
import { TokendError } from '../../util/errors.js';
import type { Keyring, KeyringRecord, MultisigKeyRecord } from '../../keyring/types.js';
import { toAccountAddress } from '../../keyring/address.js';
import { Query as AuthQuery, QueryAccountRequestSchema } from '../../gen/cosmos/auth/v1beta1/query_pb.js';
import { BaseAccountSchema, ModuleAccountSchema, type BaseAccount } from '../../gen/cosmos/auth/v1beta1/auth_pb.js';
import { EthAccountSchema } from '../../gen/ethermint/types/v1/account_pb.js';
import { InterchainAccountSchema } from '../../gen/ibc/applications/interchain_accounts/v1/account_pb.js';
import { Service as TxService, SimulateRequestSchema, SimulateResponseSchema } from '../../gen/cosmos/tx/v1beta1/service_pb.js';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { TxSchema } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { registry } from '../codec/registry.js';
import { toGatewayJson } from '../codec/json.js';
import { feeFromGatewayPrices, parseGasSetting, type GasSetting } from './gas.js';
import { parseCoins, type CoinAmount } from './coins.js';
import { abciQueryError, queryMethod, queryMethodMessage, type JsonObject, type JsonValue } from './query.js';
import { AuthInfoSchema } from '../../gen/cosmos/tx/v1beta1/tx_pb.js';
import { DEFAULT_GAS_LIMIT, encodeTxParts, encodeTxRaw, signBytesForMode, signModeFromName, txFromParts, type EncodedTxParts, type SignModeName, type TxContent } from './tx.js';
import { simulationMultisig } from './multisig.js';
import type { RpcClient } from './rpc.js';
import type { BroadcastMode } from '../config/client.js';
import { clientTxResponse, registerMessageTypes, registerTxTypes, txResultFields, type TxResponseJson } from './txResponse.js';

export interface TxOptions {
  chainId: string;
  fees?: string;
  gas?: string;
  gasPrices?: string;
  gasAdjustment: number;
  memo?: string;
  timeoutHeight?: bigint;
  mode: BroadcastMode;
  generateOnly?: boolean;
  dryRun?: boolean;
  offline?: boolean;
  accountNumber?: bigint;
  sequence?: bigint;
  /** direct (default) or amino-json. */
  signMode?: SignModeName;
  /** Fee.granter: the account whose fee allowance (x/feegrant) pays the fee (bech32). */
  feeGranter?: string;
  /** Fee.payer: the account that pays the fee; it must sign the tx too (bech32). */
  feePayer?: string;
}

export interface SignerAccount {
  accountNumber: bigint;
  sequence: bigint;
}

/**
 * The BaseAccount inside an account Any of the types the app's accounts have (auth's base, module
 * and Ethereum accounts, ICA's interchain accounts); null for another type, undefined when the
 * account has none.
 */
function baseAccountOf(account: Any): BaseAccount | undefined | null {
  if (anyIs(account, BaseAccountSchema)) return fromBinary(BaseAccountSchema, account.value);
  if (anyIs(account, EthAccountSchema)) return fromBinary(EthAccountSchema, account.value).baseAccount;
  if (anyIs(account, ModuleAccountSchema)) return fromBinary(ModuleAccountSchema, account.value).baseAccount;
  if (anyIs(account, InterchainAccountSchema)) return fromBinary(InterchainAccountSchema, account.value).baseAccount;
  return null;
}

/**
 * Account number and sequence of `address` from the node (auth Query/Account). The known account
 * types are decoded directly; another type goes through gateway JSON, which loads every module's types.
 */
export async function fetchSignerAccount(rpc: RpcClient, address: string): Promise<SignerAccount> {
  try {
    const { message } = await queryMethodMessage(rpc, AuthQuery.method.account, create(QueryAccountRequestSchema, { address }));
    const base = message.account === undefined ? null : baseAccountOf(message.account);
    if (base !== null) return { accountNumber: base?.accountNumber ?? 0n, sequence: base?.sequence ?? 0n };
  } catch (err) {
    throw notFoundAccount(err, address);
  }
  let value: JsonObject;
  try {
    value = (await queryMethod(rpc, AuthQuery.method.account, { address })).value;
  } catch (err) {
    throw notFoundAccount(err, address);
  }
  const account = value.account as JsonObject;
  const base = (account.base_account ?? account) as JsonObject;
  return { accountNumber: BigInt(String(base.account_number ?? '0')), sequence: BigInt(String(base.sequence ?? '0')) };
}

function notFoundAccount(err: unknown, address: string): unknown {
  if (err instanceof TokendError && err.code === 'NOT_FOUND') {
    return new TokendError('NOT_FOUND', `account ${address} does not exist on chain`, { hint: 'an account exists once it has received tokens; fund it first' });
  }
  return err;
}

/** Body and auth info of `content` for a multisig signer (its signer info and a stand-in signature), or none. */
function multisigParts(content: TxContent, record: MultisigKeyRecord, sequence: bigint | undefined): { parts: EncodedTxParts; signature: Uint8Array } {
  const unsigned = encodeTxParts(content, { algo: 'secp256k1', pubKey: new Uint8Array(33), sequence: 0n });
  const authInfo = fromBinary(AuthInfoSchema, unsigned.authInfoBytes);
  let signature: Uint8Array = new Uint8Array(0);
  if (sequence === undefined) authInfo.signerInfos = [];
  else {
    const sim = simulationMultisig(record, sequence);
    authInfo.signerInfos = [sim.signerInfo];
    signature = sim.signature;
  }
  return { parts: { bodyBytes: unsigned.bodyBytes, authInfoBytes: toBinary(AuthInfoSchema, authInfo) }, signature };
}

/** gas_used of `content` simulated for `key` at `sequence` (a multisig: its first `threshold` members signing). */
export async function simulateGas(rpc: RpcClient, key: KeyringRecord, content: TxContent, sequence: bigint): Promise<bigint> {
  let txBytes: Uint8Array;
  if (key.type === 'multi') {
    const { parts, signature } = multisigParts(content, key, sequence);
    txBytes = encodeTxRaw(parts, [signature]);
  } else {
    txBytes = encodeTxRaw(encodeTxParts(content, { algo: key.algo, pubKey: key.pubKey, sequence }, SignMode.UNSPECIFIED), [new Uint8Array(0)]);
  }
  const path = `/${TxService.typeName}/${TxService.method.simulate.name}`;
  const result = await rpc.abciQuery({ path, data: toBinary(SimulateRequestSchema, create(SimulateRequestSchema, { txBytes })) });
  if (result.response.code !== 0) {
    const err = abciQueryError(result.response, path);
    throw new TokendError('TX_FAILED', `gas estimation failed: ${err.message}`, { meta: err.meta });
  }
  const response = fromBinary(SimulateResponseSchema, Buffer.from(result.response.value ?? '', 'base64'));
  return response.gasInfo?.gasUsed ?? 0n;
}

export type TxOutcome =
  | { kind: 'generated'; tx: JsonValue }
  | { kind: 'signed'; tx: JsonValue }
  | { kind: 'dry-run'; gas_estimate: string; fee: string }
  | { kind: 'broadcast'; response: TxResponseJson };

function feeCoins(options: TxOptions, gasLimit: bigint): CoinAmount[] {
  if (options.fees && options.gasPrices) throw new TokendError('INVALID_ARGUMENT', 'cannot provide both --fees and --gas-prices', { exitCode: 2 });
  if (options.fees) return parseCoins(options.fees, { allowZero: true });
  if (options.gasPrices) return feeFromGatewayPrices(options.gasPrices, gasLimit);
  return [];
}

/** Build, sign and broadcast `messages` from `key`. */
export async function buildSignBroadcast(rpc: RpcClient | undefined, keyring: Keyring, key: KeyringRecord, messages: Any[], options: TxOptions): Promise<TxOutcome> {
  if (key.type === 'multi' && !options.generateOnly && !options.dryRun) {
    throw new TokendError('INVALID_ARGUMENT', `key "${key.name}" is an offline multisig key: it cannot sign by itself`, {
      hint: `write the unsigned tx with --generate-only; each member signs it with \`tokend tx sign FILE --from MEMBER --multisig ${key.name}\`, then \`tokend tx multisign FILE ${key.name} SIG…\` combines them`,
      exitCode: 2,
    });
  }
  const gasSetting: GasSetting = parseGasSetting(options.gas);
  const address = toAccountAddress(key.address);
  const needNode = !options.offline;
  if (needNode && !rpc) throw new TokendError('INTERNAL', 'no node client');
  if (options.offline && gasSetting.kind === 'auto') throw new TokendError('INVALID_ARGUMENT', '--gas auto needs a node to simulate; it cannot be used with --offline', { exitCode: 2 });
  // A multisig's unsigned tx carries no account facts: it needs them only to simulate.
  const needAccount = key.type !== 'multi' || gasSetting.kind === 'auto' || options.dryRun === true;
  if (needAccount && options.offline && (options.accountNumber === undefined || options.sequence === undefined)) {
    throw new TokendError('INVALID_ARGUMENT', '--offline needs --account-number and --sequence', { exitCode: 2 });
  }
  const account = !needAccount ? { accountNumber: 0n, sequence: 0n } : options.offline ? { accountNumber: options.accountNumber!, sequence: options.sequence! } : await fetchSignerAccount(rpc!, address);
  if (options.accountNumber !== undefined) account.accountNumber = options.accountNumber;
  if (options.sequence !== undefined) account.sequence = options.sequence;

  const content: TxContent = { messages, memo: options.memo ?? '', timeoutHeight: options.timeoutHeight, fee: [], gasLimit: DEFAULT_GAS_LIMIT, granter: options.feeGranter, payer: options.feePayer };
  let gasLimit = gasSetting.kind === 'fixed' ? gasSetting.limit : DEFAULT_GAS_LIMIT;
  if (gasSetting.kind === 'auto' || options.dryRun) {
    const used = await simulateGas(rpc!, key, { ...content, fee: feeCoins(options, DEFAULT_GAS_LIMIT) }, account.sequence);
    const estimate = BigInt(Math.ceil(Number(used) * options.gasAdjustment));
    if (options.dryRun) return { kind: 'dry-run', gas_estimate: estimate.toString(), fee: feeCoins(options, estimate).map((c) => `${c.amount}${c.denom}`).join(',') };
    gasLimit = estimate;
  }
  content.gasLimit = gasLimit;
  content.fee = feeCoins(options, gasLimit);
  // The JSON below (an unsigned or signed tx, a committed tx's response) names the messages' types.
  const render = options.generateOnly || options.offline || options.mode === 'block';
  if (render || key.type === 'multi') await registerMessageTypes(messages);
  if (key.type === 'multi') {
    // As the SDK: the unsigned tx of a multisig has no signer info; `tx multisign` adds it.
    return { kind: 'generated', tx: toGatewayJson(TxSchema, txFromParts(multisigParts(content, key, undefined).parts, []), { registry }) as JsonValue };
  }
  const mode = signModeFromName(options.signMode ?? 'direct');
  const signer = { algo: key.algo, pubKey: key.pubKey, accountNumber: account.accountNumber, sequence: account.sequence };
  const parts = encodeTxParts(content, signer, mode);
  if (options.generateOnly) {
    return { kind: 'generated', tx: toGatewayJson(TxSchema, txFromParts(parts, []), { registry }) as JsonValue };
  }
  const signed = await keyring.sign(key.name, await signBytesForMode(mode, parts, { chainId: options.chainId, accountNumber: account.accountNumber, sequence: account.sequence }));
  // Offline there is no node to broadcast to: hand back the signed tx (for `tx broadcast` elsewhere).
  if (options.offline) return { kind: 'signed', tx: toGatewayJson(TxSchema, txFromParts(parts, [signed.signature]), { registry }) as JsonValue };
  const txBytes = encodeTxRaw(parts, [signed.signature]);
  return { kind: 'broadcast', response: await broadcastTxBytes(rpc!, txBytes, options.mode) };
}

/** Broadcast TxRaw bytes; `block` waits for the commit (broadcast_tx_commit). */
export async function broadcastTxBytes(rpc: RpcClient, txBytes: Uint8Array, mode: BroadcastMode): Promise<TxResponseJson> {
  if (mode === 'block') {
    await registerTxTypes(txBytes); // the response carries the tx as JSON
    const result = await rpc.broadcastTxCommit(txBytes);
    // A CheckTx failure returns at once: height 0, no tx, the CheckTx answer.
    if (result.check_tx.code !== 0) return clientTxResponse(txResultFields(result.hash, 0, result.check_tx));
    return clientTxResponse(txResultFields(result.hash, Number(result.height), result.tx_result), txBytes);
  }
  const result = mode === 'async' ? await rpc.broadcastTxAsync(txBytes) : await rpc.broadcastTxSync(txBytes);
  // The RPC's `data` is hex here (HexBytes); the builder takes the bytes.
  const fields = txResultFields(result.hash, 0, { code: result.code, codespace: result.codespace, log: result.log });
  fields.result.data = Buffer.from(result.data, 'hex');
  return clientTxResponse(fields);
}
