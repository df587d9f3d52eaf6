/**
 * The published TypeScript relayer (@confio/relayer 0.12) used as a library against tokend nodes.
 *
 * The relayer runs on its own CosmJS 0.32 (nested under its package), so its classes and CosmJS's
 * GasPrice / wallet / account helpers are loaded as the relayer itself resolves them. Its package
 * index pulls in a test helper that needs `sinon`, so the lib files are required directly.
 *
 * tokend's accounts are Ethermint `EthAccount`s, which CosmJS's `accountFromAny` refuses; the
 * relayer forwards `IbcClientOptions` to CosmJS, so a custom `accountParser` reads the BaseAccount
 * inside (the accepted exception for library use, reference/MODULES.md §7.2).
 */
import { createRequire } from 'node:module';

const relayerRequire = createRequire(createRequire(import.meta.url).resolve('@confio/relayer/package.json'));

export const { IbcClient, prepareChannelHandshake } = relayerRequire('./build/lib/ibcclient.js') as {
  IbcClient: any;
  /** src waits a block, dest's client of src is updated, and src proves its channel end at that height (what Link.createChannel uses between steps). */
  prepareChannelHandshake: (src: any, dest: any, clientIdDest: string, portId: string, channelId: string) => Promise<any>;
};
export const { Link } = relayerRequire('./build/lib/link.js') as { Link: any };
const stargate = relayerRequire('@cosmjs/stargate') as any;
const protoSigning = relayerRequire('@cosmjs/proto-signing') as any;
const crypto = relayerRequire('@cosmjs/crypto') as any;
const cosmjsTypesRequire = createRequire(relayerRequire.resolve('@cosmjs/stargate'));
const { BinaryReader } = cosmjsTypesRequire('cosmjs-types/binary') as any;

export interface RelayerAccount {
  address: string;
  pubkey: unknown;
  accountNumber: number;
  sequence: number;
}

/** `/ethermint.types.v1.EthAccount{base_account 1, code_hash 2}` → the BaseAccount's fields; other types as CosmJS parses them. */
export function ethAccountParser(any: { typeUrl: string; value: Uint8Array }): RelayerAccount {
  if (any.typeUrl !== '/ethermint.types.v1.EthAccount') return stargate.accountFromAny(any);
  const reader = new BinaryReader(any.value);
  let base: Uint8Array | undefined;
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === 1 && (tag & 7) === 2) base = reader.bytes();
    else reader.skipType(tag & 7);
  }
  if (base === undefined) throw new Error('EthAccount without a base_account');
  return stargate.accountFromAny({ typeUrl: '/cosmos.auth.v1beta1.BaseAccount', value: base });
}

export interface RelayerChain {
  rpc: string;
  prefix: string;
  gasPrice: string;
  mnemonic: string;
  hdPath?: string;
  /** The chains' block interval (timeout_commit), which the relayer polls at while waiting for a block; 500 ms unless given. */
  blockTimeMs?: number;
}

/** A signing IbcClient for one chain: DirectSecp256k1HdWallet (plain /cosmos.crypto.secp256k1.PubKey), fee "auto"; it polls for blocks and for its txs at the block interval. */
export async function connectRelayerClient(chain: RelayerChain): Promise<any> {
  const signer = await protoSigning.DirectSecp256k1HdWallet.fromMnemonic(chain.mnemonic, {
    prefix: chain.prefix,
    hdPaths: [crypto.stringToPath(chain.hdPath ?? "m/44'/60'/0'/0/0")],
  });
  const [account] = await signer.getAccounts();
  return IbcClient.connectWithSigner(chain.rpc, signer, account.address, {
    gasPrice: stargate.GasPrice.fromString(chain.gasPrice),
    estimatedBlockTime: chain.blockTimeMs ?? 500,
    // CosmJS polls for a broadcast tx every 3 s by default: every relayer tx would wait that long.
    broadcastPollIntervalMs: chain.blockTimeMs ?? 500,
    estimatedIndexerTime: 250,
    accountParser: ethAccountParser,
  });
}

/** The relayer key's bech32 address on a chain with `prefix`. */
export async function relayerAddress(mnemonic: string, prefix: string, hdPath = "m/44'/60'/0'/0/0"): Promise<string> {
  const signer = await protoSigning.DirectSecp256k1HdWallet.fromMnemonic(mnemonic, { prefix, hdPaths: [crypto.stringToPath(hdPath)] });
  const [account] = await signer.getAccounts();
  return account.address;
}
