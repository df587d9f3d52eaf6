/**
 * The EVM's view of tokend's state: @ethereumjs's StateManagerInterface over the module stores.
 *
 *   account nonce  = the auth account's sequence
 *   balance        = the bank balance of params.evm_denom (one balance, two views)
 *   code hash      = EthAccount.code_hash; code in the evm store by hash
 *   storage        = the evm store, (address, slot) → value
 *
 * Checkpoints are store branches: checkpoint() branches the current context's multi-store,
 * commit() writes the branch into its parent, revert() discards it — so a reverted call frame
 * leaves nothing behind, and the whole transaction lands in the context it was given only
 * when the outermost frame commits.
 */
import type { StateManagerInterface, AccountFields } from '@ethereumjs/common';
import { Account, Address, KECCAK256_NULL, KECCAK256_RLP, bytesToHex, hexToBytes } from '@ethereumjs/util';
import type { Account as AuthAccount } from '../auth/account.js';
import { EMPTY_CODE_HASH } from './keys.js';
import type { Context } from '../shared/context.js';
import { keccak256 } from '../../../keyring/hash.js';
import type { CacheMultiStore } from '../../store/index.js';
import type { EvmAccountKeeper, EvmBankKeeper } from './expectedKeepers.js';
import { Code, Storage } from './keys.js';

function stripZeros(value: Uint8Array): Uint8Array {
  let i = 0;
  while (i < value.length && value[i] === 0) i++;
  return value.subarray(i);
}

export class StoreStateManager implements StateManagerInterface {
  private frames: { ctx: Context; branch?: CacheMultiStore }[];
  private readonly original = new Map<string, Uint8Array>();

  constructor(
    ctx: Context,
    private accounts: EvmAccountKeeper,
    private bank: EvmBankKeeper,
    private denom: string,
  ) {
    this.frames = [{ ctx }];
  }

  /** Binds the manager to another context (a pooled EVM's next tx or call); open checkpoints are dropped. */
  reset(ctx: Context, accounts: EvmAccountKeeper, bank: EvmBankKeeper, denom: string): void {
    this.frames = [{ ctx }];
    this.accounts = accounts;
    this.bank = bank;
    this.denom = denom;
    this.original.clear();
  }

  private get ctx(): Context {
    return this.frames[this.frames.length - 1]!.ctx;
  }

  /** Storage as it was when the transaction started (EIP-2200 / EIP-3529 gas). */
  readonly originalStorageCache = {
    get: async (address: Address, key: Uint8Array): Promise<Uint8Array> => {
      const id = `${address.toString()}:${bytesToHex(key)}`;
      let value = this.original.get(id);
      if (value === undefined) {
        value = Storage.get(this.frames[0]!.ctx, [address.bytes, key]) ?? new Uint8Array(0);
        this.original.set(id, value);
      }
      return value;
    },
    clear: (): void => this.original.clear(),
  };

  /** The balance as the running frame sees it (synchronous: tracers read it inside a step). */
  peekBalance(address: Uint8Array): bigint {
    return this.bank.getBalance(this.ctx, address, this.denom);
  }

  /** Synchronous reads for JavaScript tracers' db object (the running frame's view). */
  peekNonce(address: Uint8Array): bigint {
    return this.accounts.getAccount(this.ctx, address)?.sequence ?? 0n;
  }

  peekCode(address: Uint8Array): Uint8Array {
    const account = this.accounts.getAccount(this.ctx, address);
    if (account === undefined || account.codeHash === '' || account.codeHash === EMPTY_CODE_HASH) return new Uint8Array(0);
    return Code.get(this.ctx, hexToBytes(account.codeHash as `0x${string}`)) ?? new Uint8Array(0);
  }

  peekStorage(address: Uint8Array, slot: Uint8Array): Uint8Array {
    return Storage.get(this.ctx, [address, slot]) ?? new Uint8Array(0);
  }

  peekExists(address: Uint8Array): boolean {
    return this.accounts.getAccount(this.ctx, address) !== undefined || this.peekBalance(address) !== 0n;
  }

  async getAccount(address: Address): Promise<Account | undefined> {
    const account = this.accounts.getAccount(this.ctx, address.bytes);
    const balance = this.bank.getBalance(this.ctx, address.bytes, this.denom);
    if (account === undefined && balance === 0n) return undefined;
    const codeHash = account === undefined || account.codeHash === '' ? KECCAK256_NULL : hexToBytes(account.codeHash as `0x${string}`);
    return new Account(account?.sequence ?? 0n, balance, KECCAK256_RLP, codeHash);
  }

  private authAccount(address: Uint8Array): AuthAccount {
    return this.accounts.getAccount(this.ctx, address) ?? this.accounts.newAccountWithAddress(this.ctx, address);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    if (account === undefined) return this.deleteAccount(address);
    // One read: a new account (numbered by newAccountWithAddress) is not stored until set below.
    const stored = this.accounts.getAccount(this.ctx, address.bytes);
    const existing = stored ?? this.accounts.newAccountWithAddress(this.ctx, address.bytes);
    const codeHash = bytesToHex(account.codeHash);
    const next = { ...existing, sequence: account.nonce, codeHash: existing.kind === 'eth' ? codeHash : existing.codeHash };
    if (next.sequence !== existing.sequence || next.codeHash !== existing.codeHash || stored === undefined) {
      this.accounts.setAccount(this.ctx, next);
    }
    const balance = this.bank.getBalance(this.ctx, address.bytes, this.denom);
    if (balance !== account.balance) this.bank.setBalance(this.ctx, address.bytes, this.denom, account.balance, balance);
  }

  async deleteAccount(address: Address): Promise<void> {
    await this.clearStorage(address);
    const existing = this.accounts.getAccount(this.ctx, address.bytes);
    if (existing !== undefined) this.accounts.setAccount(this.ctx, { ...existing, sequence: 0n, codeHash: existing.kind === 'eth' ? EMPTY_CODE_HASH : existing.codeHash });
    const balance = this.bank.getBalance(this.ctx, address.bytes, this.denom);
    if (balance !== 0n) this.bank.setBalance(this.ctx, address.bytes, this.denom, 0n, balance);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    if (fields.nonce !== undefined) account.nonce = fields.nonce;
    if (fields.balance !== undefined) account.balance = fields.balance;
    if (fields.codeHash !== undefined) account.codeHash = fields.codeHash;
    await this.putAccount(address, account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    const hash = keccak256(value);
    if (value.length > 0) Code.set(this.ctx, hash, value);
    const existing = this.authAccount(address.bytes);
    this.accounts.setAccount(this.ctx, { ...existing, codeHash: bytesToHex(hash) });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    const account = this.accounts.getAccount(this.ctx, address.bytes);
    if (account === undefined || account.codeHash === '' || account.codeHash === EMPTY_CODE_HASH) return new Uint8Array(0);
    return Code.get(this.ctx, hexToBytes(account.codeHash as `0x${string}`)) ?? new Uint8Array(0);
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    return Storage.get(this.ctx, [address.bytes, key]) ?? new Uint8Array(0);
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const stripped = stripZeros(value);
    if (stripped.length === 0) Storage.remove(this.ctx, [address.bytes, key]);
    else Storage.set(this.ctx, [address.bytes, key], stripped);
  }

  async clearStorage(address: Address): Promise<void> {
    const keys: Uint8Array[] = [];
    for await (const [[, slot]] of Storage.iterate(this.ctx, { prefix: [address.bytes] })) keys.push(slot);
    for (const slot of keys) Storage.remove(this.ctx, [address.bytes, slot]);
  }

  async checkpoint(): Promise<void> {
    const branch = this.ctx.multiStore.branch();
    this.frames.push({ ctx: this.ctx.with({ multiStore: branch }), branch });
  }

  async commit(): Promise<void> {
    const frame = this.frames.pop();
    if (frame?.branch === undefined) throw new Error('commit without a checkpoint');
    frame.branch.write();
  }

  async revert(): Promise<void> {
    const frame = this.frames.pop();
    if (frame?.branch === undefined) throw new Error('revert without a checkpoint');
    frame.branch.discard();
  }

  /** State roots are the chain's app hash, not a Merkle-Patricia root: not available to the EVM. */
  async getStateRoot(): Promise<Uint8Array> {
    return new Uint8Array(32);
  }

  async setStateRoot(): Promise<void> {
    throw new Error('tokend keeps EVM state in its own store: state roots cannot be set');
  }

  async hasStateRoot(): Promise<boolean> {
    return false;
  }

  clearCaches(): void {
    this.original.clear();
  }

  shallowCopy(): StateManagerInterface {
    return new StoreStateManager(this.ctx, this.accounts, this.bank, this.denom);
  }
}
