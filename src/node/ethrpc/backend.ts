/**
 * What the Ethereum JSON-RPC reads, over the node's narrow readers (RpcEnvironment): the app's
 * evm / feemarket queries at a height (abci_query), blocks and their FinalizeBlock results
 * (receipts and logs are rebuilt from the ethereum_tx / tx_log events, as Ethermint's RPC does),
 * the tx index (eth hash → height), and the mempool (eth_sendRawTransaction).
 *
 * Block numbers and hashes are the chain's; an Ethereum tx that failed its ante chain is not part
 * of the Ethereum view of a block.
 */
import { fromBinary, toBinary, type DescMessage, type MessageInitShape, type MessageShape, create } from '@bufbuild/protobuf';
import { createContractAddress, Address, bytesToHex } from '@ethereumjs/util';
import type { ExecTxResult } from '../abci/types.js';
import type { RpcEnvironment } from '../rpc/environment.js';
import { Query as IndexQuery } from '../indexer/query.js';
import { decodeTx } from '../app/tx.js';
import { cachedTxFromMsg, commonFor, cosmosTxBytes, cosmosTxWithDecoded, effectiveGasPrice, knownSender, recoverAndRememberSender, rememberKnownSender, senderRecoveryJobFor, txFromRaw, MSG_ETHEREUM_TX_URL, type EthTx } from '../modules/evm/ethTx.js';
import { eip155ChainId, hardforkAt } from '../modules/evm/params.js';
import { ATTRIBUTE_KEY_BLOOM, EVENT_TYPE_BLOCK_BLOOM, EVENT_TYPE_ETHEREUM_TX, EVENT_TYPE_TX_LOG } from '../modules/evm/keeper.js';
import { MsgEthereumTxSchema, type MsgEthereumTx } from '../../gen/ethermint/evm/v1/tx_pb.js';
import type { Params as EvmParams } from '../../gen/ethermint/evm/v1/evm_pb.js';
import type { Block } from '../consensus/types/block.js';
import { keccak256 } from '../../util/hash.js';
import { BLOOM_BYTES, logsBloom } from '../modules/evm/bloom.js';

export class EthRpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/** One Ethereum tx of a block, with its result. */
export interface BlockEthTx {
  tx: EthTx;
  msg: MsgEthereumTx;
  from: string;
  hash: string;
  /** Index among the block's Ethereum txs. */
  index: number;
  result: ExecTxResult;
  gasUsed: bigint;
  failed: boolean;
  logs: LogJson[];
}

/** An Ethereum tx waiting in the mempool. */
export interface PendingEthTx {
  tx: EthTx;
  from: string;
  hash: string;
}

export interface LogJson {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  transactionIndex: string;
  blockHash: string;
  logIndex: string;
  removed: boolean;
}

const hex = (n: bigint | number): string => `0x${n.toString(16)}`;

export class EthBackend {
  private paramsCache: { height: number; params: EvmParams } | undefined;
  /** A block-store height the committed state had reached when last read (latestHeight). */
  private caughtUp: number | undefined;
  private commonCache: { height: number; params: EvmParams; common: ReturnType<typeof commonFor> } | undefined;

  constructor(readonly env: RpcEnvironment) {}

  get chainIdText(): string {
    return this.env.genesis.chainId;
  }

  /** The last block whose state is committed (the block store may already hold the next one). */
  latestHeight(): number {
    const stored = this.env.blockStore.height();
    // Once the state has caught up with the stored block, nothing changes until the next block is stored.
    if (this.caughtUp === stored) return stored;
    const states = this.env.stateStore;
    const committed = (states.lastBlockHeight !== undefined ? states.lastBlockHeight() : states.load()?.lastBlockHeight) ?? stored;
    if (committed >= stored) this.caughtUp = stored;
    return Math.min(stored, committed);
  }

  /** A block tag or number → a height (throws for one not yet reached). */
  resolveHeight(tag: unknown): number {
    const latest = this.latestHeight();
    if (tag === undefined || tag === null || tag === 'latest' || tag === 'pending' || tag === 'safe' || tag === 'finalized') return latest;
    if (tag === 'earliest') return Math.max(1, this.env.blockStore.base());
    if (typeof tag === 'object' && tag !== null && 'blockHash' in tag) {
      const block = this.blockByHash((tag as { blockHash: string }).blockHash);
      if (block === undefined) throw new EthRpcError(-32000, 'header for hash not found');
      return block.header.height;
    }
    if (typeof tag === 'object' && tag !== null && 'blockNumber' in tag) return this.resolveHeight((tag as { blockNumber: unknown }).blockNumber);
    if (typeof tag !== 'string' || !/^0x[0-9a-fA-F]+$/.test(tag)) throw new EthRpcError(-32602, `invalid argument: hex string without 0x prefix or invalid block tag ${JSON.stringify(tag)}`);
    const height = Number(BigInt(tag));
    if (height > latest) throw new EthRpcError(-32000, `height ${height} must be less than or equal to the current blockchain height ${latest}`);
    return height;
  }

  async query<I extends DescMessage, O extends DescMessage>(path: string, input: I, request: MessageInitShape<I>, output: O, height = 0): Promise<MessageShape<O>> {
    const response = await this.env.app.query({ path, data: toBinary(input, create(input, request)), height, prove: false });
    if (response.code !== 0) throw new EthRpcError(-32000, response.log);
    return fromBinary(output, response.value);
  }

  /** The evm params at `height` (0: the latest, `latest` when the caller knows it). */
  async evmParams(height = 0, latest?: number): Promise<EvmParams> {
    const at = height === 0 ? (latest ?? this.latestHeight()) : height;
    if (this.paramsCache?.height === at) return this.paramsCache.params;
    const { QueryParamsRequestSchema, QueryParamsResponseSchema } = await import('../../gen/ethermint/evm/v1/query_pb.js');
    const response = await this.query('/ethermint.evm.v1.Query/Params', QueryParamsRequestSchema, {}, QueryParamsResponseSchema, height);
    this.paramsCache = { height: at, params: response.params! };
    return response.params!;
  }

  async chainId(): Promise<bigint> {
    return eip155ChainId(this.chainIdText, await this.evmParams());
  }

  /** The Common of the next block (`latest`: the latest height, when the caller knows it); one per height and params. */
  async common(latest = this.latestHeight()) {
    const params = await this.evmParams(0, latest);
    const cached = this.commonCache;
    if (cached !== undefined && cached.height === latest && cached.params === params) return cached.common;
    const common = commonFor(eip155ChainId(this.chainIdText, params), hardforkAt(params.chainConfig, BigInt(latest + 1)), params.extraEips.map(Number));
    this.commonCache = { height: latest, params, common };
    return common;
  }

  /** The base fee at a height (undefined when the fee market has none). */
  async baseFee(height = 0): Promise<bigint | undefined> {
    const { QueryBaseFeeRequestSchema, QueryBaseFeeResponseSchema } = await import('../../gen/ethermint/feemarket/v1/query_pb.js');
    const response = await this.query('/ethermint.feemarket.v1.Query/BaseFee', QueryBaseFeeRequestSchema, {}, QueryBaseFeeResponseSchema, height);
    return response.baseFee === '' ? undefined : BigInt(response.baseFee);
  }

  async feeMarketParams(height = 0) {
    const { QueryParamsRequestSchema, QueryParamsResponseSchema } = await import('../../gen/ethermint/feemarket/v1/query_pb.js');
    return (await this.query('/ethermint.feemarket.v1.Query/Params', QueryParamsRequestSchema, {}, QueryParamsResponseSchema, height)).params!;
  }

  blockByHash(hashHex: string): Block | undefined {
    if (!/^0x[0-9a-fA-F]{64}$/.test(hashHex)) throw new EthRpcError(-32602, `invalid argument: hex string has length ${hashHex.length - 2}, want 64 for common.Hash`);
    return this.env.blockStore.loadBlockByHash(Buffer.from(hashHex.slice(2), 'hex'));
  }

  blockHash(height: number): string {
    const meta = this.env.blockStore.loadBlockMeta(height);
    return meta === undefined ? `0x${'0'.repeat(64)}` : bytesToHex(meta.blockId.hash);
  }

  maxGas(height: number): bigint {
    const params = this.env.stateStore.loadConsensusParams(height);
    const max = params?.block.maxGas ?? -1n;
    // Ethermint's BlockMaxGasFromConsensusParams: no limit shows as 2^32 − 1.
    return max > 0n ? max : 0xffffffffn;
  }

  /** The Ethereum txs a block executed, with receipts' material. */
  async ethTxs(block: Block): Promise<BlockEthTx[]> {
    const height = block.header.height;
    const results = this.env.stateStore.loadFinalizeBlockResponse(height)?.txResults ?? [];
    const common = await this.common();
    const blockHash = this.blockHash(height);
    const out: BlockEthTx[] = [];
    let decodedAt = -1;
    let msgs: MsgEthereumTx[] = [];
    for (const found of ethTxsOfResults(results)) {
      if (found.resultIndex !== decodedAt) {
        decodedAt = found.resultIndex;
        try {
          msgs = decodeTx(block.data.txs[found.resultIndex] ?? new Uint8Array(0))
            .msgs.filter((m) => m.typeUrl === MSG_ETHEREUM_TX_URL)
            .map((m) => m.message as MsgEthereumTx);
        } catch {
          msgs = [];
        }
      }
      const msg = msgs[found.msgIndex];
      if (msg === undefined) continue;
      const tx = cachedTxFromMsg(msg, common);
      const hash = bytesToHex(tx.hash());
      const attrs = new Map(found.attributes.map((a) => [a.key, a.value]));
      out.push({
        tx,
        msg,
        from: msg.from.toLowerCase(),
        hash,
        index: found.index,
        result: results[found.resultIndex]!,
        gasUsed: BigInt(attrs.get('txGasUsed') ?? '0'),
        failed: attrs.has('ethereumTxFailed'),
        logs: found.logs.map((stored, k) => renderLog(stored, height, hash, found.index, blockHash, found.firstLogIndex + k)),
      });
    }
    return out;
  }

  /**
   * The logs of a block read from its results' `tx_log` events alone (the tx hash from the
   * `ethereum_tx` event; no tx decoded), numbered as `ethTxs` numbers them (both number through
   * `ethTxsOfResults`). `keep` sees each log's stored JSON first, so a filter can pass over most
   * logs without parsing them.
   */
  blockLogs(height: number, results: readonly ExecTxResult[], keep: (stored: string) => boolean): LogJson[] {
    const blockHash = this.blockHash(height);
    const out: LogJson[] = [];
    for (const found of ethTxsOfResults(results)) {
      const hash = found.attributes.find((a) => a.key === 'ethereumTxHash')?.value ?? '';
      found.logs.forEach((stored, k) => {
        if (keep(stored)) out.push(renderLog(stored, height, hash, found.index, blockHash, found.firstLogIndex + k));
      });
    }
    return out;
  }

  /**
   * Block `height`'s logs bloom as stored: the evm module's `block_bloom` EndBlock event, or the
   * empty bloom for a block without one whose block-level events are recorded apart (see
   * StateStore.loadFinalizeBlockEvents: every such height was executed by a build whose evm
   * module adds each successful tx's logs to the bloom in the tx's own branch, next to its
   * `tx_log` event, and emits the event whenever the bloom is not empty — so there, no event
   * means no logs). Undefined when not known without the logs: a height stored before that
   * record, without the event, or a height not stored.
   */
  storedBloom(height: number): Uint8Array | undefined {
    const apart = this.env.stateStore.loadFinalizeBlockEvents(height);
    const events = apart ?? this.env.stateStore.loadFinalizeBlockResponse(height)?.events;
    const value = events?.find((e) => e.type === EVENT_TYPE_BLOCK_BLOOM)?.attributes.find((a) => a.key === ATTRIBUTE_KEY_BLOOM)?.value;
    if (value !== undefined) return new Uint8Array(Buffer.from(value.slice(2), 'hex'));
    return apart === undefined ? undefined : new Uint8Array(BLOOM_BYTES);
  }

  /** Finds an Ethereum tx by hash through the tx index. */
  async findTx(hash: string): Promise<{ block: Block; tx: BlockEthTx } | undefined> {
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) throw new EthRpcError(-32602, `invalid argument 0: hex string has length ${hash.length - 2}, want 64 for common.Hash`);
    const page = await this.env.txIndexer.search(IndexQuery.parse(`${EVENT_TYPE_ETHEREUM_TX}.ethereumTxHash='${hash.toLowerCase()}'`), { perPage: 1, orderBy: 'asc' });
    const indexed = page.items[0];
    if (indexed === undefined) return undefined;
    const block = this.env.blockStore.loadBlock(indexed.height);
    if (block === undefined) return undefined;
    const tx = (await this.ethTxs(block)).find((t) => t.hash === hash.toLowerCase());
    return tx === undefined ? undefined : { block, tx };
  }

  /** eth_sendRawTransaction: decode, carry in a Cosmos tx, CheckTx; the error text is the ante's. */
  async sendRaw(raw: Uint8Array): Promise<string> {
    const latest = this.latestHeight();
    const params = await this.evmParams(0, latest);
    const common = await this.common(latest);
    let tx: EthTx;
    try {
      tx = txFromRaw(raw, common);
    } catch (err) {
      throw new EthRpcError(-32000, (err as Error).message);
    }
    let from: string;
    try {
      // Recovered on a signature worker when the app has them (else, or when the worker finds
      // nothing, inline with recoverSender's error), and remembered by signed-tx hash: CheckTx
      // and FinalizeBlock of the tx built here do not recover it again.
      let sender = knownSender(tx);
      if (sender === undefined) {
        const job = this.env.app.recoverEthSender === undefined ? undefined : senderRecoveryJobFor(tx);
        const recovered = job === undefined ? undefined : await this.env.app.recoverEthSender!(job);
        if (recovered !== undefined) rememberKnownSender(tx, recovered);
        sender = recovered ?? recoverAndRememberSender(tx);
      }
      from = bytesToHex(sender);
    } catch (err) {
      throw new EthRpcError(-32000, `couldn't retrieve sender address from the ethereum transaction: ${(err as Error).message.split(' (')[0]}: tx intended signer does not match the given signer`);
    }
    // The decoded Ethereum tx is handed to the precheck and CheckTx of these bytes, and so is the
    // decoded Cosmos tx (the app's decoded-tx cache): the bytes are not decoded again.
    let bytes: Uint8Array;
    if (this.env.app.rememberDecodedTx === undefined) bytes = cosmosTxBytes(tx, from, params.evmDenom, common);
    else {
      const built = cosmosTxWithDecoded(tx, from, params.evmDenom, common);
      bytes = built.bytes;
      if (built.decoded !== undefined) this.env.app.rememberDecodedTx(built.decoded);
    }
    let response;
    try {
      response = await this.env.mempool.checkTx(bytes);
    } catch (err) {
      throw new EthRpcError(-32000, (err as Error).message);
    }
    if (response.code !== 0) throw new EthRpcError(-32000, response.log);
    return bytesToHex(tx.hash());
  }

  /** The Ethereum txs in the mempool, in its (FIFO) order. */
  async pendingEthTxs(): Promise<PendingEthTx[]> {
    const common = await this.common();
    const out: PendingEthTx[] = [];
    for (const bytes of this.env.mempool.reapMaxTxs(-1)) {
      let msgs;
      try {
        msgs = decodeTx(bytes).msgs;
      } catch {
        continue;
      }
      for (const m of msgs) {
        if (m.typeUrl !== MSG_ETHEREUM_TX_URL) continue;
        const msg = m.message as MsgEthereumTx;
        const tx = cachedTxFromMsg(msg, common);
        out.push({ tx, from: msg.from.toLowerCase(), hash: bytesToHex(tx.hash()) });
      }
    }
    return out;
  }

  /** An RPC transaction object; a pending one (no block) has null block hash, number and index. */
  txJson(block: Block | undefined, item: BlockEthTx | PendingEthTx, baseFee: bigint | undefined): Record<string, unknown> {
    const { tx } = item;
    const json: Record<string, unknown> = {
      blockHash: block === undefined ? null : this.blockHash(block.header.height),
      blockNumber: block === undefined ? null : hex(block.header.height),
      from: item.from,
      gas: hex(tx.gasLimit),
      gasPrice: hex(effectiveGasPrice(tx, baseFee)),
      hash: item.hash,
      input: bytesToHex(tx.data),
      nonce: hex(tx.nonce),
      to: tx.to === undefined ? null : tx.to.toString(),
      transactionIndex: 'index' in item ? hex(item.index) : null,
      value: hex(tx.value),
      type: hex(tx.type),
      v: hex(tx.v ?? 0n),
      r: hex(tx.r ?? 0n),
      s: hex(tx.s ?? 0n),
    };
    if ('chainId' in tx) json.chainId = hex(tx.chainId);
    else if (tx.v !== undefined && tx.v > 28n) json.chainId = hex((tx.v - 35n) / 2n);
    if ('accessList' in tx) json.accessList = tx.toJSON().accessList ?? [];
    if ('maxFeePerGas' in tx) {
      json.maxFeePerGas = hex(tx.maxFeePerGas);
      json.maxPriorityFeePerGas = hex(tx.maxPriorityFeePerGas);
      json.yParity = hex(tx.v ?? 0n);
    }
    return json;
  }

  async receiptJson(block: Block, item: BlockEthTx, all: BlockEthTx[]): Promise<Record<string, unknown>> {
    const baseFee = await this.baseFee(block.header.height).catch(() => undefined);
    let cumulative = 0n;
    for (const other of all) {
      cumulative += other.gasUsed;
      if (other === item) break;
    }
    const contract = item.tx.to === undefined ? createContractAddress(new Address(Buffer.from(item.from.slice(2), 'hex')), item.tx.nonce).toString() : null;
    return {
      blockHash: this.blockHash(block.header.height),
      blockNumber: hex(block.header.height),
      contractAddress: contract,
      cumulativeGasUsed: hex(cumulative),
      effectiveGasPrice: hex(effectiveGasPrice(item.tx, baseFee)),
      from: item.from,
      gasUsed: hex(item.gasUsed),
      logs: item.logs,
      logsBloom: bytesToHex(bloom(item.logs)),
      status: item.failed ? '0x0' : '0x1',
      to: item.tx.to === undefined ? null : item.tx.to.toString(),
      transactionHash: item.hash,
      transactionIndex: 'index' in item ? hex(item.index) : null,
      type: hex(item.tx.type),
    };
  }

  async blockJson(block: Block, full: boolean): Promise<Record<string, unknown>> {
    const height = block.header.height;
    const txs = await this.ethTxs(block);
    const baseFee = await this.baseFee(height).catch(() => undefined);
    const gasUsed = txs.reduce((sum, t) => sum + t.gasUsed, 0n);
    const size = this.env.blockStore.loadBlockMeta(height)?.blockSize ?? 0;
    const json: Record<string, unknown> = {
      number: hex(height),
      hash: this.blockHash(height),
      parentHash: block.header.lastBlockId.hash.length === 32 ? bytesToHex(block.header.lastBlockId.hash) : `0x${'0'.repeat(64)}`,
      nonce: '0x0000000000000000',
      sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347',
      logsBloom: bytesToHex(this.storedBloom(height) ?? bloom(txs.flatMap((t) => t.logs))),
      transactionsRoot: bytesToHex(block.header.dataHash.length === 32 ? block.header.dataHash : keccak256(new Uint8Array(0))),
      stateRoot: bytesToHex(block.header.appHash.length === 32 ? block.header.appHash : new Uint8Array(32)),
      receiptsRoot: '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421',
      miner: bytesToHex(block.header.proposerAddress.length === 20 ? block.header.proposerAddress : new Uint8Array(20)),
      mixHash: `0x${'0'.repeat(64)}`,
      difficulty: '0x0',
      totalDifficulty: '0x0',
      extraData: '0x',
      size: hex(size),
      gasLimit: hex(this.maxGas(height)),
      gasUsed: hex(gasUsed),
      timestamp: hex(block.header.time.seconds),
      transactions: full ? txs.map((t) => this.txJson(block, t, baseFee)) : txs.map((t) => t.hash),
      uncles: [],
    };
    if (baseFee !== undefined) json.baseFeePerGas = hex(baseFee);
    return json;
  }
}

/** An Ethereum tx as its block's results record it, numbered for the Ethereum view of the block. */
export interface EthTxEvents {
  /** Position of the carrying Cosmos tx in the block (and of its result). */
  resultIndex: number;
  /** Position among that Cosmos tx's MsgEthereumTx messages. */
  msgIndex: number;
  /** Index among the block's Ethereum txs (`transactionIndex`). */
  index: number;
  /** The attributes of its `ethereum_tx` event. */
  attributes: readonly { key: string; value: string }[];
  /** The stored JSON of its logs (its `tx_log` event's `txLog` attributes). */
  logs: string[];
  /** The block-wide `logIndex` of its first log. */
  firstLogIndex: number;
}

/**
 * The one numbering of a block's Ethereum txs and logs, from its tx results: a Cosmos tx that
 * failed (or carries no Ethereum tx) is not part of the Ethereum view; each successful
 * MsgEthereumTx left one `ethereum_tx` event, followed — within its message's events — by a
 * `tx_log` event when it logged anything, so a `tx_log` belongs to the `ethereum_tx` before it.
 * Txs are numbered in block order, logs across the block.
 */
export function ethTxsOfResults(results: readonly ExecTxResult[]): EthTxEvents[] {
  const out: EthTxEvents[] = [];
  let logIndex = 0;
  results.forEach((result, resultIndex) => {
    if (result.code !== 0) return;
    let current: EthTxEvents | undefined;
    let msgIndex = 0;
    for (const event of result.events) {
      if (event.type === EVENT_TYPE_ETHEREUM_TX) {
        current = { resultIndex, msgIndex: msgIndex++, index: out.length, attributes: event.attributes, logs: [], firstLogIndex: logIndex };
        out.push(current);
      } else if (event.type === EVENT_TYPE_TX_LOG && current !== undefined) {
        for (const attribute of event.attributes) {
          if (attribute.key !== 'txLog') continue;
          current.logs.push(attribute.value);
          logIndex++;
        }
      }
    }
  });
  return out;
}

/** A log as the JSON-RPC renders it, from the JSON the EVM module stored in its `tx_log` event. */
function renderLog(stored: string, height: number, txHash: string, txIndex: number, blockHash: string, logIndex: number): LogJson {
  const log = JSON.parse(stored) as { address: string; topics: string[]; data: string };
  return {
    address: log.address.toLowerCase(),
    topics: log.topics,
    data: `0x${Buffer.from(log.data ?? '', 'base64').toString('hex')}`,
    blockNumber: hex(height),
    transactionHash: txHash,
    transactionIndex: hex(txIndex),
    blockHash,
    logIndex: hex(logIndex),
    removed: false,
  };
}

/** The logs bloom of logs as the JSON-RPC renders them (hex address and topics). */
export function bloom(logs: readonly { address: string; topics: string[] }[]): Uint8Array {
  return logsBloom(logs.map((log) => [Buffer.from(log.address.slice(2), 'hex'), log.topics.map((topic) => Buffer.from(topic.slice(2), 'hex'))] as const));
}

export { hex, MsgEthereumTxSchema };
