/**
 * cosmos.base.tendermint.v1beta1.Service (the SDK's client/grpc/cmtservice), answered from the
 * node's block store, state store and status instead of a round trip to the CometBFT RPC.
 *
 *   GetNodeInfo              DefaultNodeInfo of this node + the application VersionInfo
 *   GetSyncing               status().catchingUp
 *   GetLatestBlock           block_id, block, sdk_block (proposer as bech32 tokenvalcons…)
 *   GetBlockByHeight         same at a height: ≤ 0 or above the chain → InvalidArgument, pruned → NotFound
 *   GetLatestValidatorSet    validators of the next height (CometBFT's default), offset-paged
 *   GetValidatorSetByHeight  validators deciding `height`; SDK Validator: bech32 address, Any pub_key
 *   ABCIQuery                only app/, store/, p2p/, custom/ paths (as the SDK: gRPC method paths
 *                            are refused so that this is no back door around the gRPC server)
 */
import { create, fromBinary } from '@bufbuild/protobuf';
import {
  ABCIQueryResponseSchema,
  GetBlockByHeightResponseSchema,
  GetLatestBlockResponseSchema,
  GetLatestValidatorSetResponseSchema,
  GetNodeInfoResponseSchema,
  GetSyncingResponseSchema,
  GetValidatorSetByHeightResponseSchema,
  ModuleSchema,
  ProofOpSchema,
  ProofOpsSchema,
  Service as TendermintService,
  ValidatorSchema,
  VersionInfoSchema,
  type Validator as SdkValidator,
  type VersionInfo,
} from '../../gen/cosmos/base/tendermint/v1beta1/query_pb.js';
import { BlockSchema as SdkBlockSchema, HeaderSchema as SdkHeaderSchema, type Block as SdkBlock } from '../../gen/cosmos/base/tendermint/v1beta1/types_pb.js';
import type { PageRequest } from '../../gen/cosmos/base/query/v1beta1/pagination_pb.js';
import { DefaultNodeInfoOtherSchema, DefaultNodeInfoSchema, ProtocolVersionSchema, type DefaultNodeInfo } from '../../gen/tendermint/p2p/types_pb.js';
import { BlockSchema, type Block } from '../../gen/tendermint/types/block_pb.js';
import type { BlockID } from '../../gen/tendermint/types/types_pb.js';
import { toConsensusAddress } from '../../keyring/address.js';
import { BLOCK_PROTOCOL, P2P_PROTOCOL } from '../consensus/types/block.js';
import { fromHex } from '../consensus/types/bytes.js';
import { COMPAT_COMETBFT_VERSION, versionInfo } from '../version/version.js';
import { pubKeyAny, protoBlockId } from './convert.js';
import { nodeServiceEntries } from './define.js';
import { offsetPage, type PageLimits } from './paging.js';
import { queryError, type NodeServicesEnv, type QueryEntry } from './types.js';

/** CometBFT's reactor channel list (p2p/node_info.go) as shown by `status`. */
const DEFAULT_CHANNELS_HEX = '40202122233038606100';

/** The ABCI query path families the SDK's ABCIQuery accepts (baseapp QueryPath*). */
const ABCI_QUERY_PREFIXES = new Set(['app', 'store', 'p2p', 'custom']);

export interface TendermintServiceOptions {
  /** other.rpc_address of GetNodeInfo: the CometBFT RPC listen address. */
  rpcAddress: string;
  limits: PageLimits;
}

let cachedVersion: VersionInfo | undefined;

/** The application's VersionInfo (read once: it touches package files). */
function applicationVersion(): VersionInfo {
  if (cachedVersion === undefined) {
    const info = versionInfo();
    cachedVersion = create(VersionInfoSchema, {
      name: info.name,
      appName: info.app_name,
      version: info.version,
      gitCommit: info.git_commit,
      buildTags: info.build_tags,
      goVersion: info.node_version,
      buildDeps: info.build_deps.map((dep) => create(ModuleSchema, { path: dep.path, version: dep.version, sum: dep.sum })),
      cosmosSdkVersion: info.cosmos_sdk_version,
    });
  }
  return cachedVersion;
}

function defaultNodeInfo(env: NodeServicesEnv, rpcAddress: string): DefaultNodeInfo {
  const info = env.nodeInfo();
  return create(DefaultNodeInfoSchema, {
    protocolVersion: create(ProtocolVersionSchema, {
      p2p: info.protocolVersion?.p2p ?? P2P_PROTOCOL,
      block: info.protocolVersion?.block ?? BLOCK_PROTOCOL,
      app: info.protocolVersion?.app ?? 0n,
    }),
    defaultNodeId: info.id,
    listenAddr: info.listenAddr,
    network: info.network,
    version: info.version ?? COMPAT_COMETBFT_VERSION,
    channels: fromHex(info.channels ?? DEFAULT_CHANNELS_HEX),
    moniker: info.moniker,
    other: create(DefaultNodeInfoOtherSchema, { txIndex: env.txIndexer.enabled ? 'on' : 'off', rpcAddress }),
  });
}

/** The SDK variant of a block: same content, header.proposer_address as a bech32 consensus address. */
export function sdkBlock(block: Block): SdkBlock {
  const header = block.header;
  return create(SdkBlockSchema, {
    header:
      header === undefined
        ? undefined
        : create(SdkHeaderSchema, {
            version: header.version,
            chainId: header.chainId,
            height: header.height,
            time: header.time,
            lastBlockId: header.lastBlockId,
            lastCommitHash: header.lastCommitHash,
            dataHash: header.dataHash,
            validatorsHash: header.validatorsHash,
            nextValidatorsHash: header.nextValidatorsHash,
            consensusHash: header.consensusHash,
            appHash: header.appHash,
            lastResultsHash: header.lastResultsHash,
            evidenceHash: header.evidenceHash,
            proposerAddress: header.proposerAddress.length === 0 ? '' : toConsensusAddress(header.proposerAddress),
          }),
    data: block.data,
    evidence: block.evidence,
    lastCommit: block.lastCommit,
  });
}

export interface StoredBlock {
  blockId: BlockID;
  block: Block;
}

/**
 * The stored block at `height` as protobuf, checked the way the SDK/CometBFT check it:
 * ≤ 0 → InvalidArgument, above the latest height → InvalidArgument (the SDK's text), below the
 * store's base (pruned) → NotFound.
 */
export function loadProtoBlock(env: Pick<NodeServicesEnv, 'blockStore'>, height: number): StoredBlock {
  const store = env.blockStore;
  const latest = store.height();
  if (!Number.isSafeInteger(height) || height <= 0) throw queryError('InvalidArgument', `height must be greater than 0, but got ${height}`);
  if (height > latest) throw queryError('InvalidArgument', `requested block height ${height} is bigger then the chain length ${latest}`);
  const base = store.base();
  if (height < base) throw queryError('NotFound', `height ${height} is not available, lowest height is ${base}`);
  const meta = store.loadBlockMeta(height);
  const bytes = store.loadBlockBytes(height);
  if (meta === undefined || bytes === undefined) throw queryError('NotFound', `block at height ${height} not found`);
  return { blockId: protoBlockId(meta.blockId), block: fromBinary(BlockSchema, bytes) };
}

function latestBlockHeight(env: Pick<NodeServicesEnv, 'blockStore'>): number {
  const latest = env.blockStore.height();
  if (latest === 0) throw queryError('NotFound', 'no block has been committed yet');
  return latest;
}

function validatorPage(
  env: NodeServicesEnv,
  height: number,
  pagination: PageRequest | undefined,
  limits: PageLimits,
): { validators: SdkValidator[]; pagination: ReturnType<typeof offsetPage>['pagination'] } {
  const set = env.stateStore.loadValidators(height);
  if (set === undefined) throw queryError('NotFound', `validator set for height ${height} is not available`);
  const page = offsetPage(pagination, set.validators.length, limits, 'the validator set queries');
  const validators = page.indexes.map((i) => {
    const v = set.validators[i]!;
    return create(ValidatorSchema, {
      address: toConsensusAddress(v.address),
      pubKey: pubKeyAny(v.pubKey),
      votingPower: v.votingPower,
      proposerPriority: v.proposerPriority,
    });
  });
  return { validators, pagination: page.pagination };
}

export function tendermintServiceEntries(env: NodeServicesEnv, options: TendermintServiceOptions): QueryEntry[] {
  const latestHeight = (): number => env.blockStore.height();
  return nodeServiceEntries(
    TendermintService,
    {
      async getNodeInfo() {
        return create(GetNodeInfoResponseSchema, { defaultNodeInfo: defaultNodeInfo(env, options.rpcAddress), applicationVersion: applicationVersion() });
      },

      async getSyncing() {
        return create(GetSyncingResponseSchema, { syncing: env.status().catchingUp });
      },

      async getLatestBlock() {
        const { blockId, block } = loadProtoBlock(env, latestBlockHeight(env));
        return create(GetLatestBlockResponseSchema, { blockId, block, sdkBlock: sdkBlock(block) });
      },

      async getBlockByHeight(request) {
        const { blockId, block } = loadProtoBlock(env, Number(request.height));
        return create(GetBlockByHeightResponseSchema, { blockId, block, sdkBlock: sdkBlock(block) });
      },

      async getLatestValidatorSet(request) {
        // CometBFT's `validators` without a height: the set of the next block (latest + 1).
        const latest = env.blockStore.height();
        const height = env.stateStore.loadValidators(latest + 1) !== undefined ? latest + 1 : latest;
        const page = validatorPage(env, height, request.pagination, options.limits);
        return create(GetLatestValidatorSetResponseSchema, { blockHeight: BigInt(height), ...page });
      },

      async getValidatorSetByHeight(request) {
        const height = Number(request.height);
        const latest = env.blockStore.height();
        if (!Number.isSafeInteger(height) || height <= 0) throw queryError('InvalidArgument', `height must be greater than 0, but got ${request.height}`);
        if (height > latest + 1) throw queryError('InvalidArgument', `requested block height ${height} is bigger then the chain length ${latest}`);
        const page = validatorPage(env, height, request.pagination, options.limits);
        return create(GetValidatorSetByHeightResponseSchema, { blockHeight: BigInt(height), ...page });
      },

      async aBCIQuery(request) {
        if (request.path === '') throw queryError('InvalidArgument', 'empty query path');
        const first = request.path.replace(/^\//, '').split('/')[0] ?? '';
        if (!ABCI_QUERY_PREFIXES.has(first)) throw queryError('InvalidArgument', `unsupported ABCI query path: ${request.path}`);
        const height = Number(request.height);
        if (!Number.isSafeInteger(height) || height < 0) throw queryError('InvalidArgument', `height must be non-negative, but got ${request.height}`);
        const res = await env.app.query({ path: request.path, data: request.data, height, prove: request.prove });
        return create(ABCIQueryResponseSchema, {
          code: res.code,
          log: res.log,
          info: res.info,
          index: res.index,
          key: res.key,
          value: res.value,
          proofOps:
            res.proofOps === undefined
              ? undefined
              : create(ProofOpsSchema, { ops: res.proofOps.ops.map((op) => create(ProofOpSchema, { type: op.type, key: op.key, data: op.data })) }),
          height: BigInt(res.height),
          codespace: res.codespace,
        });
      },
    },
    latestHeight,
  );
}
