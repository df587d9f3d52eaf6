/**
 * Base of every `tx` command: the tx flags of the spec (--from, --fees, --gas, --gas-prices,
 * --gas-adjustment, -b, --chain-id, --yes, --note …), the signing key, confirmation, and output
 * of the TxResponse. A tx that the node rejects prints its response and exits 1 with the reason.
 */
import { Flags, type Command } from '@oclif/core';
import type { Any } from '@bufbuild/protobuf/wkt';
import { NodeCommand } from './nodeCommand.js';
import { keyringFlags, openCliKeyring } from './keys.js';
import { nodeFlag } from './nodeFlags.js';
import { confirm } from './prompt.js';
import { TokendError } from '../util/errors.js';
import { BROADCAST_MODES } from '../node/config/client.js';
import type { Keyring, KeyringRecord } from '../keyring/types.js';
import { SIGN_MODE_NAMES, type SignModeName } from '../node/client/signModes.js';
import type { TxOutcome } from '../node/client/broadcast.js';

export const txFlags = {
  ...nodeFlag,
  ...keyringFlags,
  from: Flags.string({ description: 'Name or address of the key that signs', helpGroup: 'TX' }),
  'chain-id': Flags.string({ description: 'The chain id (default from client.toml, else testnet)', helpGroup: 'TX' }),
  fees: Flags.string({ description: 'Fees to pay, e.g. 1000attotoken', helpGroup: 'TX' }),
  'gas-prices': Flags.string({ description: 'Gas prices that determine the fee, e.g. 0.1attotoken', helpGroup: 'TX' }),
  gas: Flags.string({ description: 'Gas limit: a number, or "auto" to simulate (default 200000)', helpGroup: 'TX' }),
  'gas-adjustment': Flags.string({ description: 'Factor applied to the simulated gas with --gas auto', default: '1', helpGroup: 'TX' }),
  'broadcast-mode': Flags.option({ char: 'b', options: BROADCAST_MODES, description: 'sync | async | block (wait for the commit)', helpGroup: 'TX' })(),
  yes: Flags.boolean({ char: 'y', description: 'Skip the confirmation before signing', helpGroup: 'TX' }),
  note: Flags.string({ description: 'Memo to attach to the tx', helpGroup: 'TX' }),
  'timeout-height': Flags.integer({ description: 'Reject the tx if it is not committed by this height', min: 0, helpGroup: 'TX' }),
  'generate-only': Flags.boolean({ description: 'Print the unsigned tx as JSON and stop', helpGroup: 'TX' }),
  offline: Flags.boolean({ description: 'Do not contact the node: sign and print the tx instead of broadcasting (needs --account-number and --sequence)', helpGroup: 'TX' }),
  'account-number': Flags.string({ description: 'Account number of the signer (with --offline)', helpGroup: 'TX' }),
  sequence: Flags.string({ description: 'Sequence of the signer (with --offline)', helpGroup: 'TX' }),
  'dry-run': Flags.boolean({ description: 'Simulate the tx and print the gas estimate; nothing is signed or sent', helpGroup: 'TX' }),
  'sign-mode': Flags.option({ options: SIGN_MODE_NAMES, description: 'direct (default) or amino-json (the Ledger / Keplr amino form; multisig members always sign amino-json)', helpGroup: 'TX' })(),
  'fee-granter': Flags.string({ description: 'Address whose fee allowance pays the fee (x/feegrant)', helpGroup: 'TX' }),
  'fee-payer': Flags.string({ description: 'Address that pays the fee instead of the signer; it must sign the tx as well', helpGroup: 'TX' }),
};

export interface TxFlagValues {
  node?: string;
  'keyring-backend'?: 'os' | 'file' | 'test' | 'memory';
  from?: string;
  'chain-id'?: string;
  fees?: string;
  'gas-prices'?: string;
  gas?: string;
  'gas-adjustment': string;
  'broadcast-mode'?: 'sync' | 'async' | 'block';
  yes: boolean;
  note?: string;
  'timeout-height'?: number;
  'generate-only': boolean;
  offline: boolean;
  'account-number'?: string;
  sequence?: string;
  'dry-run': boolean;
  'sign-mode'?: SignModeName;
  'fee-granter'?: string;
  'fee-payer'?: string;
}

/** A --fee-granter / --fee-payer value as a bech32 account address (hex accepted), or one clear error. */
async function feeAddress(name: string, value: string | undefined): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const { parseAddress, toAccountAddress } = await import('../keyring/address.js');
  try {
    return toAccountAddress(parseAddress(value));
  } catch (err) {
    throw new TokendError('INVALID_ARGUMENT', `invalid --${name} address "${value}": ${err instanceof Error ? err.message : String(err)}`, { hint: 'pass a token1… (or 0x…) account address', exitCode: 2 });
  }
}

function parseUint(name: string, value: string | undefined): bigint | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new TokendError('INVALID_ARGUMENT', `--${name} must be a non-negative integer, got "${value}"`, { exitCode: 2 });
  return BigInt(value);
}

export abstract class TxCommand<T extends typeof Command> extends NodeCommand<T, TxOutcome> {
  private keyringCache?: Keyring;

  protected txFlags(): TxFlagValues {
    return this.flags as unknown as TxFlagValues;
  }

  protected async keyring(): Promise<Keyring> {
    if (!this.keyringCache) {
      const backend = this.clientConfig({ 'keyring-backend': this.txFlags()['keyring-backend'] })['keyring-backend'];
      this.keyringCache = await openCliKeyring(backend, this.home);
    }
    return this.keyringCache;
  }

  /** The signing key: `nameOrAddress` (a positional from) or --from; a multisig key only generates (--generate-only). */
  protected async signingKey(nameOrAddress?: string): Promise<KeyringRecord> {
    const from = nameOrAddress ?? this.txFlags().from;
    if (!from) throw new TokendError('INVALID_ARGUMENT', 'no signer given', { hint: 'pass --from <key-name-or-address>', exitCode: 2 });
    return (await this.keyring()).record(from);
  }

  /** Sign and broadcast `messages` with `key`, honouring every tx flag. */
  protected async submit(key: KeyringRecord, messages: Any[]): Promise<TxOutcome> {
    const flags = this.txFlags();
    const config = this.clientConfig({ 'chain-id': flags['chain-id'], node: flags.node, 'broadcast-mode': flags['broadcast-mode'] });
    const gasAdjustment = Number(flags['gas-adjustment']);
    if (!Number.isFinite(gasAdjustment) || gasAdjustment <= 0) throw new TokendError('INVALID_ARGUMENT', `invalid --gas-adjustment "${flags['gas-adjustment']}"`, { exitCode: 2 });
    const feeGranter = await feeAddress('fee-granter', flags['fee-granter']);
    const feePayer = await feeAddress('fee-payer', flags['fee-payer']);
    if (!flags.yes && !flags['generate-only'] && !flags['dry-run'] && key.type !== 'multi') {
      const ok = await confirm(`Sign and broadcast ${messages.map((m) => m.typeUrl).join(', ')} from ${key.name} on ${config['chain-id']}?`);
      if (!ok) throw new TokendError('ABORTED', 'aborted: tx not signed', { hint: 'pass --yes to skip the confirmation' });
    }
    const { buildSignBroadcast } = await import('../node/client/broadcast.js');
    const outcome = await buildSignBroadcast(flags.offline ? undefined : await this.rpc(), await this.keyring(), key, messages, {
      chainId: config['chain-id'],
      fees: flags.fees,
      gas: flags.gas,
      gasPrices: flags['gas-prices'],
      gasAdjustment,
      memo: flags.note,
      timeoutHeight: flags['timeout-height'] === undefined ? undefined : BigInt(flags['timeout-height']),
      mode: config['broadcast-mode'],
      generateOnly: flags['generate-only'],
      dryRun: flags['dry-run'],
      offline: flags.offline,
      accountNumber: parseUint('account-number', flags['account-number']),
      sequence: parseUint('sequence', flags.sequence),
      signMode: flags['sign-mode'],
      feeGranter,
      feePayer,
    });
    return outcome;
  }

  protected override toJson(result: TxOutcome): unknown {
    if (result.kind === 'generated' || result.kind === 'signed') return result.tx;
    if (result.kind === 'dry-run') return { gas_estimate: result.gas_estimate, fee: result.fee };
    return result.response;
  }

  protected override async renderText(result: TxOutcome): Promise<string | undefined> {
    // An unsigned tx is always JSON, so it can be fed to `tx sign` whatever the output format.
    if (result.kind === 'generated' || result.kind === 'signed') return JSON.stringify(result.tx);
    const { stringify } = await import('yaml');
    return stringify(this.toJson(result), { lineWidth: 0 }).trimEnd();
  }

  protected override async print(result: TxOutcome): Promise<void> {
    await super.print(result);
    if (result.kind === 'broadcast' && result.response.code !== 0) {
      const r = result.response;
      throw new TokendError('TX_FAILED', `tx ${r.txhash} failed with code ${r.code} (${r.codespace || 'sdk'}): ${r.raw_log}`, {
        meta: { txhash: r.txhash, code: r.code, codespace: r.codespace },
      });
    }
  }
}
