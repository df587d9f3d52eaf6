/**
 * The application: the state machine behind the ABCI-shaped `Application` interface, over a
 * versioned `CommitMultiStore`.
 *
 * State branches (baseapp's states):
 *   - working state: `store.getStore(name)` — the last commit plus the writes of InitChain and the
 *     current block; FinalizeBlock writes a block branch into it, `workingHash()` is the app hash
 *     it returns, Commit persists it;
 *   - CheckTx state: `store.branchCommitted()` — a cache over the last *committed* version kept
 *     across CheckTx calls (so queued txs of one sender use seq, seq+1, …) and replaced after
 *     every Commit;
 *   - Simulate: a throw-away branch of the CheckTx state.
 *
 * ONE `runTx(mode)` serves check | recheck | simulate | finalize: decode, basic message checks,
 * the ante chain on one branch (written back on success — ante writes such as the fee and the
 * sequence persist even if the messages then fail), then (finalize/simulate only) the messages on
 * another branch, written back only in finalize and only if every message succeeds.
 */
import { create, toBinary, type Message } from '@bufbuild/protobuf';
import { AnySchema, type Any } from '@bufbuild/protobuf/wkt';
import { GasInfoSchema, ResultSchema, SimulationResponseSchema } from '../../gen/cosmos/base/abci/v1beta1/abci_pb.js';
import { SignMode } from '../../gen/cosmos/tx/signing/v1beta1/signing_pb.js';
import { sha256 } from '../../keyring/hash.js';
import { TokendError } from '../../util/errors.js';
import type {
  AbciEvent,
  Application,
  ConsensusParams,
  ExecTxResult,
  RequestCheckTx,
  RequestFinalizeBlock,
  RequestInfo,
  RequestInitChain,
  RequestPrepareProposal,
  RequestProcessProposal,
  RequestQuery,
  ResponseCheckTx,
  ResponseCommit,
  ResponseFinalizeBlock,
  ResponseInfo,
  ResponseInitChain,
  ResponsePrepareProposal,
  ResponseProcessProposal,
  ResponseQuery,
  ValidatorUpdate,
} from '../abci/types.js';
import { OutOfGasError, isStoreError, prefixEnd, type CacheMultiStore, type CommitMultiStore, type MultiStore } from '../store/index.js';
import { pubKeysEqual, type PubKey } from '../modules/auth/account.js';
import { accString } from '../modules/shared/address.js';
import { decCoinsToString, type DecCoin } from '../modules/shared/coins.js';
import { Context, emptyHeader, type BlockHeader, type CometInfo, type ExecMode } from '../modules/shared/context.js';
import { SdkErrors, abciInfo, isSdkError, type SdkError } from '../modules/shared/errors.js';
import {
  ATTRIBUTE_KEY_ACTION,
  ATTRIBUTE_KEY_MODE,
  ATTRIBUTE_KEY_MODULE,
  ATTRIBUTE_KEY_MSG_INDEX,
  ATTRIBUTE_KEY_SENDER,
  EVENT_TYPE_MESSAGE,
  EventManager,
  appendAttribute,
  markEventsToIndex,
  newEvent,
} from '../modules/shared/events.js';
import type { MsgRoute } from '../modules/shared/module.js';
import { ProtoWriter } from '../modules/shared/proto.js';
import { AnteHandler, type AnteEnvBase, type AnteState, type PreverifiedSignatures } from './ante/index.js';
import type { PrecheckedSignature, SignaturePrecheck } from './ante/types.js';
import type { AccountKeeper } from '../modules/auth/keeper.js';
import type { BankKeeper } from '../modules/bank/keeper.js';
import type { ModuleManager } from '../platform/manager.js';
import { CONSENSUS_STORE_KEY, createModuleManager } from './modules.js';
import { UPGRADE_HANDLERS } from './upgrades.js';
import { childLogger } from '../logger.js';
import { loadChainId, loadConsensusParams, saveConsensusState } from './consensus.js';
import { APP_NAME, parseMinGasPrices, resolveAppOptions, type AppOptions } from './options.js';
import { QueryRegistry, UNKNOWN_QUERY_PATH, queryErrorResponse, queryOkResponse, runQueryRoute, type QueryRoute } from './query.js';
import { protoEvents } from '../codec/txResponse.js';
import { nodeQueryService, txQueryService, type ServiceBackend, type SimulationOutcome } from './services.js';
import { RecoverBatcher, SignatureVerifierPool, VerifiedSignatureCache, VerifyBatcher, verificationJob, type SharedVerification, type VerifyJob } from './sigverify.js';
import { DecodedTxCache, signDocBytes, type DecodedTx } from './tx.js';
import { parseAppStateBytes, validateAppStateStatic } from './genesisState.js';
import { TimeSlicer } from '../../util/slices.js';

/** What runTx reports, in every mode. */
export interface TxOutcome {
  code: number;
  codespace: string;
  log: string;
  gasWanted: bigint;
  gasUsed: bigint;
  events: AbciEvent[];
  /** TxMsgData{msg_responses} (finalize/simulate success), else empty. */
  data: Uint8Array;
  msgResponses: Any[];
  priority: bigint;
  tx: DecodedTx | undefined;
}

/** Time spent per phase, for benchmarks and metrics (milliseconds, cumulative). */
export interface AppTimings {
  checkTxMs: number;
  preverifyMs: number;
  finalizeMs: number;
  commitMs: number;
  checkTxCount: number;
  deliverTxCount: number;
  /** Signatures of FinalizeBlock found already verified by the workers. */
  preverifiedHits: number;
}

const EMPTY = new Uint8Array(0);
/** sha256("") — the app hash of an empty, never-committed state (the SDK's LastCommitID). */
const EMPTY_APP_HASH = sha256(EMPTY);

/** Key of one signer of one tx in the worker-verified set. */
function preverifiedKey(hash: Uint8Array, index: number): string {
  return `${Buffer.from(hash.buffer, hash.byteOffset, hash.byteLength).toString('latin1')}:${index}`;
}

function moduleNameFromTypeUrl(typeUrl: string): string {
  const parts = typeUrl.split('.');
  return parts.length > 1 ? parts[1]! : '';
}

export class App implements Application {
  readonly options: AppOptions;
  /** The app's modules, created from the declarations in modules.ts. */
  readonly manager: ModuleManager;
  private readonly accountKeeper: AccountKeeper;
  private readonly bankKeeper: BankKeeper;
  readonly queryRouter = new QueryRegistry();
  /** The ante chains (router by extension option), sign modes and fee-grant hook: `app.ante.router.register(…)`, `app.ante.configure(…)`. */
  readonly ante = new AnteHandler();
  readonly timings: AppTimings = { checkTxMs: 0, preverifyMs: 0, finalizeMs: 0, commitMs: 0, checkTxCount: 0, deliverTxCount: 0, preverifiedHits: 0 };
  readonly sigCache: VerifiedSignatureCache;
  private readonly txCache: DecodedTxCache;
  private readonly verifierPool: SignatureVerifierPool | undefined;
  /** Signatures of txs waiting for CheckTx, verified on the workers in batches. */
  private readonly checkBatcher: VerifyBatcher | undefined;
  /** Sender recoveries of eth_sendRawTransaction on the workers (recoverEthSender). */
  private readonly recoverBatcher: RecoverBatcher | undefined;
  /** The modules' signature pre-checks (precheckTx). */
  private readonly signaturePrechecks: SignaturePrecheck[];
  private readonly minGasPrices: DecCoin[];
  private readonly indexSet: ReadonlySet<string>;
  private chainId: string;
  private consensusParams: ConsensusParams | undefined;
  private checkState: CacheMultiStore;
  private checkHeader: BlockHeader;
  /** Header of the block finalized and not yet committed. */
  private pendingHeader: BlockHeader | undefined;
  private lastHeader: BlockHeader | undefined;
  private halted = false;
  private parallelVerification = true;
  /** Worker verification of the block being finalized. */
  private preverified: PreverifiedSignatures | undefined;
  private executionSliceMs: number;

  constructor(
    readonly store: CommitMultiStore,
    options: Partial<AppOptions> = {},
  ) {
    this.options = resolveAppOptions(options);
    this.executionSliceMs = this.options.executionSliceMs;
    this.minGasPrices = parseMinGasPrices(this.options.minGasPrices);
    this.indexSet = new Set(this.options.indexEvents);
    const upgrades = this.options.upgrades;
    this.manager = createModuleManager(
      {
        deliverTx: (ctx, txBytes) => this.deliverGenTx(ctx, txBytes),
        upgrades: {
          handlers: upgrades?.handlers ?? UPGRADE_HANDLERS,
          skipHeights: upgrades?.skipHeights ?? [],
          ...(upgrades?.homeDir !== undefined ? { homeDir: upgrades.homeDir } : {}),
          logger: childLogger(this.options.logger, { module: 'x/upgrade' }),
        },
      },
      this.options.moduleSet ?? {},
    );
    this.ante.configure({ aminoNameOverrides: this.manager.aminoNames(), feeGrantKeeper: this.manager.feeGrantKeeper(), signatureFallback: this.manager.signatureFallback() });
    this.signaturePrechecks = this.manager.signaturePrechecks();
    for (const [typeUrl, chain] of this.manager.anteChains()) this.ante.router.register(typeUrl, chain);
    this.ante.router.extendDefault(this.manager.anteDecorators());
    this.accountKeeper = this.manager.keeper<AccountKeeper>('auth');
    this.bankKeeper = this.manager.keeper<BankKeeper>('bank');
    this.manager.afterCommit(store.latestVersion());
    this.txCache = new DecodedTxCache(this.options.txCacheSize);
    this.sigCache = new VerifiedSignatureCache(this.options.txCacheSize);
    this.verifierPool = SignatureVerifierPool.create(this.options.sigVerifyWorkers);
    this.checkBatcher = this.verifierPool === undefined ? undefined : new VerifyBatcher(this.verifierPool);
    this.recoverBatcher = this.verifierPool === undefined ? undefined : new RecoverBatcher(this.verifierPool);

    for (const service of this.manager.queryServices()) this.queryRouter.register(service);
    const backend = this.serviceBackend();
    this.queryRouter.register(txQueryService(backend));
    this.queryRouter.register(nodeQueryService(backend));

    const consensusStore = store.getStore(CONSENSUS_STORE_KEY.name);
    this.consensusParams = loadConsensusParams(consensusStore);
    const storedChainId = loadChainId(consensusStore);
    if (storedChainId !== undefined && this.options.chainId !== '' && storedChainId !== this.options.chainId) {
      throw new TokendError('CONFIG_INVALID', `chain id mismatch: the state belongs to chain ${storedChainId}, but ${this.options.chainId} was configured`);
    }
    this.chainId = storedChainId ?? this.options.chainId;
    this.checkHeader = emptyHeader(this.chainId, store.latestVersion());
    this.checkState = store.branchCommitted();
  }

  /** Resolves when the modules have loaded what they need (openApp awaits it). */
  ready(): Promise<void> {
    return this.manager.ready();
  }

  /** Stops the signature workers. The store is the caller's to close. */
  async close(): Promise<void> {
    await this.verifierPool?.close();
  }

  get currentChainId(): string {
    return this.chainId;
  }

  /** Number of signature worker threads in use (0 = inline only). */
  get verifierThreads(): number {
    return this.parallelVerification ? (this.verifierPool?.size ?? 0) : 0;
  }

  /** Turns up-front worker verification of unseen block signatures on or off (operators, benchmarks). */
  setParallelVerification(enabled: boolean): void {
    this.parallelVerification = enabled;
  }

  /** Sets the execution slice (see AppOptions.executionSliceMs; benchmarks compare 0 and the default). */
  setExecutionSlice(ms: number): void {
    this.executionSliceMs = ms;
  }

  // ================================================================== ABCI: info / init

  async info(_request: RequestInfo): Promise<ResponseInfo> {
    const last = this.store.lastCommitId();
    return {
      data: APP_NAME,
      version: this.options.version,
      appVersion: this.options.appVersion,
      lastBlockHeight: last.version,
      lastBlockAppHash: last.hash,
    };
  }

  async initChain(request: RequestInitChain): Promise<ResponseInitChain> {
    if (this.store.latestVersion() > 0) {
      throw new TokendError('ABORTED', `InitChain called with committed state at height ${this.store.latestVersion()}`);
    }
    if (this.options.chainId !== '' && request.chainId !== this.options.chainId) {
      throw new TokendError('INVALID_GENESIS', `invalid chain-id on InitChain; expected: ${this.options.chainId}, got: ${request.chainId}`);
    }
    this.chainId = request.chainId;
    this.consensusParams = request.consensusParams;
    if (request.initialHeight > 1) this.store.setInitialVersion(request.initialHeight);

    const appState = parseAppStateBytes(request.appStateBytes);
    const problems = validateAppStateStatic(appState, this.manager);
    if (problems.length > 0) throw new TokendError('INVALID_GENESIS', `invalid genesis state: ${problems.join('; ')}`, { meta: { problems } });

    // On a new chain the genesis block is height 0 (initial height > 1 keeps that height).
    const header: BlockHeader = { ...emptyHeader(request.chainId, request.initialHeight > 1 ? request.initialHeight : 0, request.time) };
    const branch = this.store.branch();
    const ctx = new Context({ mode: 'block', multiStore: branch, header, consensusParams: request.consensusParams });
    saveConsensusState(ctx.kv(CONSENSUS_STORE_KEY), request.consensusParams, request.chainId);

    let validators: ValidatorUpdate[];
    try {
      validators = await this.manager.initGenesis(ctx, appState);
    } catch (err) {
      if (err instanceof TokendError) throw err;
      throw new TokendError('INVALID_GENESIS', err instanceof Error ? err.message : String(err), { cause: err });
    }
    if (validators.length === 0) {
      throw new TokendError(
        'INVALID_GENESIS',
        'validator set is empty after InitGenesis, please ensure at least one validator is initialized with a delegation greater than or equal to the DefaultPowerReduction (1000000000000000000)',
      );
    }
    if (request.validators.length > 0) checkGenesisValidators(request.validators, validators);

    branch.write();
    this.checkState = this.store.branchCommitted();
    this.checkHeader = header;
    this.options.logger.info('initialized chain', { chainId: request.chainId, validators: validators.length, initialHeight: request.initialHeight });
    const last = this.store.lastCommitId();
    return { validators, appHash: last.hash.length > 0 ? last.hash : EMPTY_APP_HASH };
  }

  /** Runs one gentx in the genesis branch (genutil's DeliverGenTx). */
  private async deliverGenTx(ctx: Context, txBytes: Uint8Array): Promise<{ code: number; log: string }> {
    const outcome = await this.runTx('finalize', txBytes, ctx.multiStore, ctx.header);
    if (outcome.tx !== undefined) this.txCache.forget(outcome.tx);
    return { code: outcome.code, log: outcome.log };
  }

  // ================================================================== ABCI: mempool

  async checkTx(request: RequestCheckTx): Promise<ResponseCheckTx> {
    const started = performance.now();
    const mode: ExecMode = request.type === 'recheck' ? 'recheck' : 'check';
    const outcome = await this.runTx(mode, request.tx, this.checkState, this.checkHeader);
    this.timings.checkTxMs += performance.now() - started;
    this.timings.checkTxCount++;
    const sender = outcome.tx?.signers[0];
    return {
      code: outcome.code,
      data: EMPTY,
      log: outcome.log,
      info: '',
      gasWanted: outcome.gasWanted,
      gasUsed: outcome.gasUsed,
      events: [],
      codespace: outcome.codespace,
      priority: outcome.priority,
      sender: sender === undefined ? undefined : Buffer.from(sender).toString('hex'),
    };
  }

  // ================================================================== ABCI: proposals

  async prepareProposal(request: RequestPrepareProposal): Promise<ResponsePrepareProposal> {
    const maxGas = this.consensusParams?.block.maxGas ?? -1n;
    const txs: Uint8Array[] = [];
    let bytes = 0;
    let gas = 0n;
    for (const tx of request.txs) {
      let decoded: DecodedTx;
      try {
        decoded = this.txCache.decode(tx);
      } catch {
        continue; // never propose what does not decode
      }
      if (bytes + tx.length > request.maxTxBytes) break;
      if (maxGas > 0n && gas + decoded.gasLimit > maxGas) break;
      bytes += tx.length;
      gas += decoded.gasLimit;
      txs.push(tx);
    }
    return { txs };
  }

  async processProposal(request: RequestProcessProposal): Promise<ResponseProcessProposal> {
    for (const tx of request.txs) {
      try {
        this.txCache.decode(tx);
      } catch {
        return { status: 'reject' };
      }
    }
    return { status: 'accept' };
  }

  // ================================================================== ABCI: blocks

  async finalizeBlock(request: RequestFinalizeBlock): Promise<ResponseFinalizeBlock> {
    const started = performance.now();
    if (this.options.haltHeight > 0 && request.height > this.options.haltHeight) {
      throw new TokendError('ABORTED', `halt per configuration height ${this.options.haltHeight} time ${this.options.haltTime}`);
    }
    if (this.options.haltTime > 0 && request.time.getTime() / 1000 > this.options.haltTime) {
      throw new TokendError('ABORTED', `halt per configuration height ${this.options.haltHeight} time ${this.options.haltTime}`);
    }
    const header: BlockHeader = {
      height: request.height,
      time: request.time,
      chainId: this.chainId,
      proposerAddress: request.proposerAddress,
      hash: request.hash,
      nextValidatorsHash: request.nextValidatorsHash,
      appHash: this.store.lastCommitId().hash,
    };
    const blockBranch = this.store.branch();
    const decoded = request.txs.map((tx) => {
      try {
        return this.txCache.decode(tx);
      } catch {
        return undefined;
      }
    });
    this.preverified = await this.preverifySignatures(decoded, header);
    try {
      return await this.executeBlock(request, header, blockBranch, decoded, started);
    } finally {
      this.preverified?.finish();
      this.preverified = undefined;
    }
  }

  /** Begin-block hooks, the txs, end-block hooks, then the block branch into the working state. */
  private async executeBlock(request: RequestFinalizeBlock, header: BlockHeader, blockBranch: CacheMultiStore, decoded: readonly (DecodedTx | undefined)[], started: number): Promise<ResponseFinalizeBlock> {

    const cometInfo: CometInfo = { lastCommit: request.decidedLastCommit, misbehavior: request.misbehavior };
    const blockCtx = new Context({ mode: 'block', multiStore: blockBranch, header, consensusParams: this.consensusParams, cometInfo });
    const events: AbciEvent[] = [];
    /** A block-hook context whose events get the SDK's mode attribute. */
    const hookCtx = (mode: string, blockGasUsed?: bigint): ((module: string) => Context) => (): Context => {
      const em = new EventManager();
      hookEvents.push({ mode, em });
      return blockCtx.with({ events: em, blockGasUsed });
    };
    let hookEvents: { mode: string; em: EventManager }[] = [];
    const collectHookEvents = (): void => {
      for (const { mode, em } of hookEvents) for (const event of em.events) events.push(appendAttribute(event, ATTRIBUTE_KEY_MODE, mode));
      hookEvents = [];
    };
    if (await this.manager.preBlock(hookCtx('PreBlock'))) this.reloadConsensusParams(blockBranch);
    collectHookEvents();
    await this.manager.beginBlock(hookCtx('BeginBlock'));
    collectHookEvents();

    const txResults: ExecTxResult[] = [];
    // Queries, CheckTx and sockets read committed state, which this block does not touch until
    // Commit: let them in every slice instead of making them wait for the whole block.
    const slice = this.executionSliceMs;
    const slicer = new TimeSlicer(slice);
    let blockGasUsed = 0n;
    for (let i = 0; i < request.txs.length; i++) {
      if (slicer.due()) await slicer.pause();
      const outcome = await this.runTx('finalize', request.txs[i]!, blockBranch, header, decoded[i]);
      txResults.push({
        code: outcome.code,
        data: outcome.data,
        log: outcome.log,
        info: '',
        gasWanted: outcome.gasWanted,
        gasUsed: outcome.gasUsed,
        events: markEventsToIndex(outcome.events, this.indexSet),
        codespace: outcome.codespace,
      });
      blockGasUsed += outcome.gasUsed;
      if (outcome.tx !== undefined) {
        this.txCache.forget(outcome.tx);
        this.sigCache.forget(outcome.tx.hash);
      }
    }
    this.timings.deliverTxCount += request.txs.length;

    // The block gas meter: every delivered tx's gas used, capped at the block's max gas.
    const maxBlockGas = this.consensusParams?.block.maxGas ?? -1n;
    if (maxBlockGas > 0n && blockGasUsed > maxBlockGas) blockGasUsed = maxBlockGas;
    const endBlock = await this.manager.endBlock(hookCtx('EndBlock', blockGasUsed));
    collectHookEvents();
    const validatorUpdates = endBlock.validatorUpdates ?? [];
    let consensusParamUpdates: ConsensusParams | undefined;
    if (endBlock.consensusParamUpdates !== undefined) {
      consensusParamUpdates = endBlock.consensusParamUpdates;
      saveConsensusState(blockCtx.kv(CONSENSUS_STORE_KEY), consensusParamUpdates, this.chainId);
      this.consensusParams = consensusParamUpdates;
    }

    blockBranch.write();
    const appHash = slice > 0 ? await this.store.workingHashSliced(slice) : this.store.workingHash();
    this.pendingHeader = header;
    this.timings.finalizeMs += performance.now() - started;
    return { events: markEventsToIndex(events, this.indexSet), txResults, validatorUpdates, ...(consensusParamUpdates ? { consensusParamUpdates } : {}), appHash };
  }

  /** A PreBlocker changed the consensus params: read them again from the block branch. */
  private reloadConsensusParams(branch: MultiStore): void {
    this.consensusParams = loadConsensusParams(branch.getStore(CONSENSUS_STORE_KEY.name)) ?? this.consensusParams;
  }

  async commit(): Promise<ResponseCommit> {
    const started = performance.now();
    const committed = await this.store.commit();
    this.manager.afterCommit(committed.version);
    this.checkState = this.store.branchCommitted();
    const header = this.pendingHeader ?? emptyHeader(this.chainId, committed.version);
    this.checkHeader = { ...header, height: committed.version };
    this.lastHeader = this.checkHeader;
    this.pendingHeader = undefined;
    this.timings.commitMs += performance.now() - started;
    if (!this.halted && this.options.haltHeight > 0 && committed.version >= this.options.haltHeight) {
      this.halted = true;
      const reason = `halt per configuration height ${this.options.haltHeight}`;
      this.options.logger.info('halting node per configuration', { height: committed.version });
      this.options.onHalt?.(reason);
    }
    return { retainHeight: 0 };
  }

  // ================================================================== runTx

  private anteEnv(mode: ExecMode): AnteEnvBase {
    return {
      accountKeeper: this.accountKeeper,
      bankKeeper: this.bankKeeper,
      minGasPrices: this.minGasPrices,
      sigCache: this.sigCache,
      maxBlockGas: this.consensusParams?.block.maxGas ?? -1n,
      // Only the block being finalized: CheckTx may run between its slices.
      preverified: mode === 'finalize' ? this.preverified : undefined,
    };
  }

  /**
   * Runs one tx over `base` in `mode`. The ante chain runs on a branch of `base` that is written
   * back on success; messages (finalize and simulate only) run on another branch of `base`,
   * written back only in finalize when every message succeeds.
   */
  async runTx(mode: ExecMode, txBytes: Uint8Array, base: MultiStore, header: BlockHeader, decoded?: DecodedTx): Promise<TxOutcome> {
    let tx: DecodedTx;
    try {
      tx = decoded ?? this.txCache.decode(txBytes);
    } catch (err) {
      return failure(err, 0n, 0n, [], undefined);
    }
    // validateBasicTxMsgs, and messages without a handler (before anything is charged).
    if (tx.msgs.length === 0) return failure(SdkErrors.InvalidRequest.wrap('must contain at least one message'), 0n, 0n, [], tx);
    const routes: MsgRoute[] = [];
    for (const msg of tx.msgs) {
      const route = this.manager.router.route(msg.typeUrl);
      if (route === undefined) return failure(SdkErrors.UnknownRequest.wrap(`no message handler found for ${msg.typeUrl}`), 0n, 0n, [], tx);
      routes.push(route);
    }

    const gasWanted = tx.gasLimit;
    const anteBranch = base.branch();
    const state: AnteState = {
      ctx: new Context({ mode, multiStore: anteBranch, header, consensusParams: this.consensusParams, metered: true, readCache: true, events: new EventManager(mode === 'check' || mode === 'recheck') }),
      tx,
      simulate: mode === 'simulate',
      priority: 0n,
    };
    try {
      const pending = this.ante.run(state, this.anteEnv(mode));
      if (pending !== undefined) await pending;
    } catch (err) {
      anteBranch.discard();
      return failure(outOfGas(err), gasWanted, BigInt(state.ctx.gasMeter.gasConsumed()), [], tx);
    }
    anteBranch.write();
    const anteEvents = state.ctx.events.events;
    const gasMeter = state.ctx.gasMeter;

    if (mode === 'check' || mode === 'recheck') {
      return { code: 0, codespace: '', log: '', gasWanted, gasUsed: BigInt(gasMeter.gasConsumed()), events: [], data: EMPTY, msgResponses: [], priority: state.priority, tx };
    }

    const msgBranch = base.branch();
    const msgCtx = state.ctx.with({ multiStore: msgBranch, events: new EventManager() });
    const events: AbciEvent[] = [...anteEvents];
    const msgResponses: Any[] = [];
    for (let i = 0; i < tx.msgs.length; i++) {
      const msg = tx.msgs[i]!;
      const route = routes[i]!;
      const em = new EventManager();
      let response: Message;
      try {
        response = await route.handler(msgCtx.with({ events: em }), msg.message);
      } catch (err) {
        msgBranch.discard();
        const wrapped = err instanceof OutOfGasError ? outOfGas(err) : wrapMessageError(err, i);
        return failure(wrapped, gasWanted, BigInt(gasMeter.gasConsumed()), mode === 'finalize' ? anteEvents : [], tx);
      }
      msgResponses.push(create(AnySchema, { typeUrl: `/${route.responseSchema.typeName}`, value: toBinary(route.responseSchema, response) }));
      events.push(...messageEvents(msg.typeUrl, msg.signers[0], em.events, i));
    }
    if (mode === 'finalize') msgBranch.write();
    return {
      code: 0,
      codespace: '',
      log: '',
      gasWanted,
      gasUsed: BigInt(gasMeter.gasConsumed()),
      events,
      data: encodeTxMsgData(msgResponses),
      msgResponses,
      priority: state.priority,
      tx,
    };
  }

  /**
   * Starts verifying, on worker threads, the signatures of `txs` that no CheckTx verified (blocks
   * from peers, replay), with the account numbers and keys of the state before the block. The
   * workers write each result to shared memory as they go; the ante chain, executing txs in
   * order meanwhile, skips a check the workers already passed with the same facts and verifies
   * inline otherwise — it never waits, so a slow or busy worker can only save work, not add it.
   */
  private async preverifySignatures(txs: readonly (DecodedTx | undefined)[], header: BlockHeader): Promise<PreverifiedSignatures | undefined> {
    if (this.verifierPool === undefined || !this.parallelVerification) return undefined;
    const started = performance.now();
    const slicer = new TimeSlicer(this.executionSliceMs);
    let yielded = 0;
    const ctx = new Context({ mode: 'block', multiStore: this.store, header });
    const jobs: VerifyJob[] = [];
    const entries = new Map<string, { job: number; accountNumber: bigint; pubKey: PubKey }>();
    for (const tx of txs) {
      if (tx === undefined) continue;
      if (slicer.due()) yielded += await slicer.pause();
      for (const { index, accountNumber, pubKey, job } of this.signatureJobs(ctx, tx, header.height)) {
        entries.set(preverifiedKey(tx.hash, index), { job: jobs.length, accountNumber, pubKey });
        jobs.push(job);
      }
    }
    let shared: SharedVerification | undefined;
    if (jobs.length >= this.options.parallelVerifyThreshold) shared = this.verifierPool.startShared(jobs);
    this.timings.preverifyMs += performance.now() - started - yielded;
    if (shared === undefined) return undefined;
    const chainId = this.chainId;
    const timings = this.timings;
    return {
      check(hash, checkChainId, index, accountNumber, pubKey) {
        const entry = entries.get(preverifiedKey(hash, index));
        const ok = entry !== undefined && checkChainId === chainId && entry.accountNumber === accountNumber && pubKeysEqual(entry.pubKey, pubKey) && shared.state(entry.job) === 1;
        if (ok) timings.preverifiedHits++;
        return ok;
      },
      finish() {
        shared.cancel();
      },
    };
  }

  /**
   * The signatures of `tx` a worker can check: single DIRECT signatures of signers whose account
   * (read in `ctx`) has a key or brings one, not verified before with the same facts.
   */
  private signatureJobs(ctx: Context, tx: DecodedTx, height: number): { index: number; accountNumber: bigint; pubKey: PubKey; job: VerifyJob }[] {
    const out: { index: number; accountNumber: bigint; pubKey: PubKey; job: VerifyJob }[] = [];
    tx.signers.forEach((signer, index) => {
      const info = tx.signerInfos[index];
      const signature = tx.signatures[index];
      if (info === undefined || signature === undefined || info.signMode !== SignMode.DIRECT) return;
      const account = this.accountKeeper.getAccount(ctx, signer);
      if (account === undefined) return;
      const pubKey = account.pubKey ?? info.pubKey;
      if (pubKey === undefined) return;
      const accountNumber = height === 0 ? 0n : account.accountNumber;
      if (this.sigCache.has(tx.hash, this.chainId, index, accountNumber, pubKey, false)) return;
      const job = verificationJob(pubKey, signDocBytes(tx.bodyBytes, tx.authInfoBytes, this.chainId, accountNumber), signature);
      if (job !== undefined) out.push({ index, accountNumber, pubKey, job });
    });
    return out;
  }

  /**
   * Not ABCI: the address an `eth_recover` job's signature recovers to, worked out on a signature
   * worker (batched with the other requests of the same turn) so that eth_sendRawTransaction
   * does not spend the main thread on it. Undefined when there are no workers, nothing
   * recovers, or a worker failed: the caller recovers inline (and reports its error).
   */
  async recoverEthSender(job: VerifyJob): Promise<Uint8Array | undefined> {
    if (this.recoverBatcher === undefined || !this.parallelVerification) return undefined;
    return this.recoverBatcher.recover(job);
  }

  /**
   * Not ABCI: the decoding of tx bytes its caller built itself from the very messages decoding
   * them gives (`decodedTxFromParts`; eth_sendRawTransaction's Cosmos wrapper), so the precheck,
   * CheckTx and FinalizeBlock of those bytes find it instead of decoding them again.
   */
  rememberDecodedTx(tx: DecodedTx): void {
    this.txCache.remember(tx);
  }

  /**
   * Ahead of CheckTx (the mempool calls it before queueing for the app): the tx's signatures are
   * verified on the worker threads, batched with those of every other tx arriving meanwhile, and
   * the successes go into the verified-signature cache, so CheckTx itself finds them verified
   * (with the same facts, re-checked there) instead of spending the main thread on them. A
   * failure records nothing: CheckTx verifies inline and answers the usual error.
   */
  async precheckTx(txBytes: Uint8Array): Promise<void> {
    if (this.checkBatcher === undefined || !this.parallelVerification) return;
    let tx: DecodedTx;
    try {
      tx = this.txCache.decode(txBytes);
    } catch {
      return;
    }
    const ctx = new Context({ mode: 'check', multiStore: this.checkState, header: this.checkHeader });
    const signers = this.signatureJobs(ctx, tx, this.checkHeader.height);
    // Modules' own signature work (the evm module's Ethereum sender recovery); a module that
    // cannot tell (bad tx, state it cannot read) offers nothing and its ante chain decides.
    const moduleJobs: PrecheckedSignature[] = [];
    for (const precheck of this.signaturePrechecks) {
      try {
        moduleJobs.push(...precheck(ctx, tx));
      } catch {
        // nothing prechecked: CheckTx does the work inline
      }
    }
    if (signers.length === 0 && moduleJobs.length === 0) return;
    let results: boolean[];
    try {
      results = await this.checkBatcher.verify([...signers.map((signer) => signer.job), ...moduleJobs.map((entry) => entry.job)]);
    } catch {
      return; // a worker failed: CheckTx verifies inline
    }
    signers.forEach(({ index, accountNumber, pubKey }, i) => {
      if (results[i] === true) this.sigCache.add(tx.hash, this.chainId, index, { accountNumber, pubKey });
    });
    moduleJobs.forEach((entry, i) => {
      if (results[signers.length + i] === true) entry.accept();
    });
  }

  // ================================================================== simulate

  /** Simulates a tx on a copy of the CheckTx state (COMPAT §3.6). */
  async simulate(txBytes: Uint8Array): Promise<SimulationOutcome> {
    const scratch = this.checkState.branch();
    const outcome = await this.runTx('simulate', txBytes, scratch, this.checkHeader);
    scratch.discard();
    return {
      ok: outcome.code === 0,
      log: outcome.log,
      gasWanted: outcome.gasWanted,
      gasUsed: outcome.gasUsed,
      events: outcome.events,
      data: outcome.data,
      msgResponses: outcome.msgResponses,
    };
  }

  private serviceBackend(): ServiceBackend {
    return {
      simulate: (txBytes) => this.simulate(txBytes),
      minGasPricesText: () => decCoinsToString(this.minGasPrices),
      pruning: () => ({ keepRecent: this.options.pruning.keepRecent, interval: this.options.pruning.interval }),
      haltHeight: () => this.options.haltHeight,
      status: () => ({
        earliestHeight: this.store.earliestVersion(),
        height: this.store.latestVersion(),
        time: this.lastHeader?.time,
        appHash: this.store.lastCommitId().hash,
        validatorHash: this.lastHeader?.nextValidatorsHash ?? EMPTY,
      }),
    };
  }

  // ================================================================== queries

  /**
   * A query context at `height` (0 = latest committed). Throws SdkError: 18 for a negative or
   * pruned height (naming the retained range), 26 for a future one or (unless `beforeFirstBlock`)
   * before the first block is committed.
   */
  createQueryContext(height: number, beforeFirstBlock = false): { ctx: Context; height: number } {
    const latest = this.store.latestVersion();
    if (!Number.isSafeInteger(height) || height < 0) throw SdkErrors.InvalidRequest.wrap('cannot query with height < 0; please provide a valid height');
    // Until block 1 is committed there is no committed state to answer from (the servers are up
    // before InitChain, and InitChain's genesis is committed with block 1): the SDK's "not ready"
    // error rather than empty answers — a funded account must never read as empty. The /app/
    // paths (simulate, version) are answered (`beforeFirstBlock`).
    if (latest === 0 && !beforeFirstBlock) throw SdkErrors.InvalidHeight.wrap(`${APP_NAME} is not ready; please wait for first block`);
    const resolved = height === 0 ? latest : height;
    if (resolved > latest) throw SdkErrors.InvalidHeight.wrap('cannot query with height in the future; please provide a valid height');
    let multiStore: MultiStore;
    if (resolved === 0) multiStore = this.store.branchCommitted();
    else {
      try {
        multiStore = this.store.branchAt(resolved);
      } catch (err) {
        if (isStoreError(err)) {
          throw SdkErrors.InvalidRequest.wrap(`failed to load state at height ${resolved}; ${err.message} (latest height: ${latest})`);
        }
        throw err;
      }
    }
    const header = resolved === latest && this.lastHeader !== undefined ? this.lastHeader : emptyHeader(this.chainId, resolved);
    return { ctx: new Context({ mode: 'query', multiStore, header, consensusParams: this.consensusParams }), height: resolved };
  }

  /** The registered route for a gRPC/ABCI path. */
  queryRoute(path: string): QueryRoute | undefined {
    return this.queryRouter.lookup(path);
  }

  async query(request: RequestQuery): Promise<ResponseQuery> {
    const path = request.path;
    const route = this.queryRouter.lookup(path);
    const isStorePath = /^\/?store\//.test(path);
    const isAppPath = /^\/?app\//.test(path);
    if (route === undefined && !isStorePath && !isAppPath) return queryErrorResponse(UNKNOWN_QUERY_PATH(), request.height);

    let ctx: Context;
    let height: number;
    try {
      ({ ctx, height } = this.createQueryContext(request.height, isAppPath));
    } catch (err) {
      return queryErrorResponse(err, request.height);
    }
    if (route !== undefined) return runQueryRoute(route, request.data, ctx, height);
    if (isStorePath) return this.storeQuery(path, request, height);
    return this.appQuery(path, request, height);
  }

  /**
   * "/store/<name>/key": the raw value at the height; with `prove`, the two ICS23 proof ops
   * (`ics23:iavl` keyed by the key, `ics23:simple` keyed by the store name) that verify against
   * the app hash of that height (the header at height+1). "/store/<name>/subspace": every
   * (key, value) under the prefix at the height as cosmos.base.kv.v1beta1.Pairs (no proof, as
   * in the SDK).
   */
  private async storeQuery(path: string, request: RequestQuery, height: number): Promise<ResponseQuery> {
    const parts = path.replace(/^\//, '').split('/');
    const name = parts[1] ?? '';
    const sub = parts[2] ?? '';
    if (!this.store.storeNames().includes(name)) return queryErrorResponse(SdkErrors.UnknownRequest.wrap(`no such store: ${name}`), height);
    if ((sub !== 'key' && sub !== 'subspace') || parts.length > 3) return queryErrorResponse(SdkErrors.UnknownRequest.wrap(`unexpected query path: ${path}`), height);
    if (sub === 'key' && request.data.length === 0) return queryErrorResponse(SdkErrors.InvalidRequest.wrap('query cannot be zero length'), height);
    if (height === 0) return queryErrorResponse(SdkErrors.InvalidRequest.wrap('no version has been committed yet'), height);
    try {
      if (sub === 'subspace') {
        const view = this.store.storeAt(height, name);
        const pairs: Uint8Array[] = [];
        const end = request.data.length === 0 ? undefined : prefixEnd(request.data);
        for await (const [key, value] of view.iterator(request.data.length === 0 ? undefined : request.data, end)) pairs.push(encodeKvPair(key, value));
        return queryOkResponse(Buffer.concat(pairs), height, { key: request.data });
      }
      if (request.prove) {
        const proof = await this.store.prove(height, name, request.data);
        return queryOkResponse(proof.value ?? EMPTY, height, { key: request.data, proofOps: { ops: proof.ops } });
      }
      return queryOkResponse(this.store.readAt(height, name, request.data) ?? EMPTY, height, { key: request.data });
    } catch (err) {
      return queryErrorResponse(isStoreError(err) ? SdkErrors.InvalidRequest.wrap(err.message) : err, height);
    }
  }

  /** "/app/simulate" (tx bytes → SimulationResponse) and "/app/version". */
  private async appQuery(path: string, request: RequestQuery, height: number): Promise<ResponseQuery> {
    const sub = path.replace(/^\//, '').split('/')[1] ?? '';
    if (sub === 'version') return queryOkResponse(new TextEncoder().encode(this.options.version), height);
    if (sub === 'simulate') {
      const outcome = await this.simulate(request.data);
      if (!outcome.ok) {
        return queryErrorResponse(SdkErrors.InvalidRequest.wrap(`failed to simulate tx: ${outcome.log}`), height);
      }
      const response = create(SimulationResponseSchema, {
        gasInfo: create(GasInfoSchema, { gasWanted: outcome.gasWanted, gasUsed: outcome.gasUsed }),
        result: create(ResultSchema, { data: outcome.data, log: outcome.log, events: protoEvents(outcome.events), msgResponses: outcome.msgResponses }),
      });
      return queryOkResponse(toBinary(SimulationResponseSchema, response), height);
    }
    return queryErrorResponse(SdkErrors.UnknownRequest.wrap(`unknown query: ${path}`), height);
  }
}

// ==================================================================== helpers

/** One `pairs` entry (field 1) of cosmos.base.kv.v1beta1.Pairs: Pair{key = 1, value = 2}. */
function encodeKvPair(key: Uint8Array, value: Uint8Array): Uint8Array {
  const field = (tag: number, bytes: Uint8Array): Buffer => Buffer.concat([Uint8Array.of(tag), uvarintBytes(bytes.length), bytes]);
  const pair = Buffer.concat([field(0x0a, key), field(0x12, value)]);
  return field(0x0a, pair);
}

function uvarintBytes(value: number): Uint8Array {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Uint8Array.from(out);
}

/** Genesis validators from the engine must equal the app's (sorted by power then key). */
function checkGenesisValidators(fromEngine: readonly ValidatorUpdate[], fromApp: readonly ValidatorUpdate[]): void {
  if (fromEngine.length !== fromApp.length) {
    throw new TokendError('INVALID_GENESIS', `len(RequestInitChain.Validators) != len(GenesisValidators) (${fromEngine.length} != ${fromApp.length})`);
  }
  const order = (a: ValidatorUpdate, b: ValidatorUpdate): number =>
    a.power !== b.power ? (a.power > b.power ? -1 : 1) : Buffer.compare(Buffer.from(a.pubKey), Buffer.from(b.pubKey));
  const engine = [...fromEngine].sort(order);
  const app = [...fromApp].sort(order);
  for (let i = 0; i < app.length; i++) {
    const a = engine[i]!;
    const b = app[i]!;
    if (a.pubKeyType !== b.pubKeyType || a.power !== b.power || Buffer.compare(Buffer.from(a.pubKey), Buffer.from(b.pubKey)) !== 0) {
      throw new TokendError('INVALID_GENESIS', `genesisValidators[${i}] != req.Validators[${i}] `);
    }
  }
}

/** TxMsgData{msg_responses = 2 (Any)}, hand-encoded (byte-identical to protobuf-es; tested). */
function encodeTxMsgData(responses: readonly Any[]): Uint8Array {
  const writer = new ProtoWriter(64 * responses.length + 8);
  for (const any of responses) writer.messageField(2, new ProtoWriter(any.value.length + 64).stringField(1, any.typeUrl).bytesField(2, any.value).finish());
  return writer.finish();
}

function failure(err: unknown, gasWanted: bigint, gasUsed: bigint, events: AbciEvent[], tx: DecodedTx | undefined): TxOutcome {
  const info = abciInfo(err);
  return { code: info.code, codespace: info.codespace, log: info.log, gasWanted, gasUsed, events, data: EMPTY, msgResponses: [], priority: 0n, tx };
}

/** The SDK's out-of-gas result: "out of gas in location: D; gasWanted: W, gasUsed: U: out of gas". */
function outOfGas(err: unknown): unknown {
  if (err instanceof OutOfGasError) return SdkErrors.OutOfGas.wrap(`out of gas in location: ${err.descriptor}; gasWanted: ${err.gasLimit}, gasUsed: ${err.gasUsed}`);
  return err;
}

function wrapMessageError(err: unknown, index: number): SdkError | Error {
  const prefix = `failed to execute message; message index: ${index}`;
  if (isSdkError(err)) return err.wrap(prefix);
  return new Error(`${prefix}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

/**
 * baseapp createEvents: message{action, sender (first signer), module} before the handler's
 * events, then msg_index on every one of them (SDK 0.50).
 */
function messageEvents(typeUrl: string, firstSigner: Uint8Array | undefined, handlerEvents: readonly AbciEvent[], index: number): AbciEvent[] {
  const attributes: [string, string][] = [[ATTRIBUTE_KEY_ACTION, typeUrl]];
  if (firstSigner !== undefined) attributes.push([ATTRIBUTE_KEY_SENDER, accString(firstSigner)]);
  const hasModule = handlerEvents.some((event) => event.attributes.some((attr) => attr.key === ATTRIBUTE_KEY_MODULE));
  const moduleName = moduleNameFromTypeUrl(typeUrl);
  if (!hasModule && moduleName !== '') attributes.push([ATTRIBUTE_KEY_MODULE, moduleName]);
  const msgIndex = String(index);
  return [newEvent(EVENT_TYPE_MESSAGE, ...attributes), ...handlerEvents].map((event) => appendAttribute(event, ATTRIBUTE_KEY_MSG_INDEX, msgIndex));
}
