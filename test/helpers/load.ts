/**
 * A tx load for end-to-end tests: bank sends from a devnet home's "dev" key, signed in-process
 * (SIGN_MODE_DIRECT, explicit sequence) and sent with broadcast_tx_sync over HTTP. Every tx the
 * node answered with code 0 is remembered, so a test can check afterwards that each one was
 * committed or reported evicted.
 */
import { create } from '@bufbuild/protobuf';
import { MsgSendSchema } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { CoinSchema } from '../../src/gen/cosmos/base/v1beta1/coin_pb.js';
import { toAccountAddress } from '../../src/keyring/address.js';
import { openKeyring } from '../../src/keyring/open.js';
import type { KeyRecord, Keyring } from '../../src/keyring/types.js';
import { fetchSignerAccount } from '../../src/node/client/broadcast.js';
import { RpcClient } from '../../src/node/client/rpc.js';
import { encodeTxParts, encodeTxRaw, packMessage, signBytesForMode } from '../../src/node/client/tx.js';
import { SignMode } from '../../src/gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { DEVNET_CHAIN_ID, DEVNET_DENOM, DEVNET_KEY } from '../../src/node/genesis/devnet.js';
import { sha256 } from '../../src/util/hash.js';

export interface Accepted {
  hash: string;
  sequence: bigint;
}

export async function rpcCall<T = unknown>(rpc: string, method: string, params: Record<string, unknown>, timeoutMs = 10_000): Promise<{ result?: T; error?: { code: number; message: string; data?: string } }> {
  const res = await fetch(rpc, { method: 'POST', body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }), signal: AbortSignal.timeout(timeoutMs) });
  return (await res.json()) as { result?: T; error?: { code: number; message: string; data?: string } };
}

export class TxLoad {
  readonly accepted: Accepted[] = [];
  /** broadcast answers other than code 0 (CheckTx refusals, node errors), by text. */
  readonly refused = new Map<string, number>();
  private sequence = 0n;
  private accountNumber = 0n;

  private constructor(
    private readonly keyring: Keyring,
    private readonly key: KeyRecord,
    private readonly to: string,
  ) {}

  static async open(home: string): Promise<TxLoad> {
    const keyring = await openKeyring({ backend: 'test', home });
    const key = (await keyring.get(DEVNET_KEY)) as KeyRecord;
    // Sends to a fixed burn-like address derived from a label (never a key of the test).
    const to = toAccountAddress(sha256(new TextEncoder().encode('tokend-load-recipient')).subarray(0, 20));
    return new TxLoad(keyring, key, to);
  }

  /** Take account number and sequence from the node (call at start and after a restart). */
  async sync(rpc: string): Promise<void> {
    const account = await fetchSignerAccount(new RpcClient(rpc), toAccountAddress(this.key.address));
    this.accountNumber = account.accountNumber;
    this.sequence = account.sequence;
  }

  get nextSequence(): bigint {
    return this.sequence;
  }

  async signed(sequence: bigint): Promise<Uint8Array> {
    const msg = packMessage(MsgSendSchema, create(MsgSendSchema, { fromAddress: toAccountAddress(this.key.address), toAddress: this.to, amount: [create(CoinSchema, { denom: DEVNET_DENOM, amount: '1' })] }));
    const content = { messages: [msg], memo: '', fee: [{ denom: DEVNET_DENOM, amount: 0n }].filter((c) => c.amount > 0n), gasLimit: 200_000n };
    const signer = { algo: this.key.algo, pubKey: this.key.pubKey, accountNumber: this.accountNumber, sequence };
    const parts = encodeTxParts(content, signer, SignMode.DIRECT);
    const signature = await this.keyring.sign(this.key.name, await signBytesForMode(SignMode.DIRECT, parts, { chainId: DEVNET_CHAIN_ID, accountNumber: this.accountNumber, sequence }));
    return encodeTxRaw(parts, [signature.signature]);
  }

  /** Send the next tx; true when the node accepted it (code 0). Network errors count as refusals. */
  async sendOne(rpc: string): Promise<boolean> {
    const tx = await this.signed(this.sequence);
    let answer: Awaited<ReturnType<typeof rpcCall<{ code: number; hash: string; log: string }>>>;
    try {
      answer = await rpcCall<{ code: number; hash: string; log: string }>(rpc, 'broadcast_tx_sync', { tx: Buffer.from(tx).toString('base64') });
    } catch (err) {
      this.count(`network: ${(err as Error).message}`);
      return false;
    }
    if (answer.result?.code === 0) {
      this.accepted.push({ hash: answer.result.hash, sequence: this.sequence });
      this.sequence++;
      return true;
    }
    this.count(answer.error ? `${answer.error.data ?? answer.error.message}` : `code ${answer.result?.code}: ${answer.result?.log}`);
    return false;
  }

  private count(text: string): void {
    const key = text.slice(0, 120);
    this.refused.set(key, (this.refused.get(key) ?? 0) + 1);
  }
}
