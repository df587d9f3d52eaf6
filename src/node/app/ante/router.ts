/**
 * The extension-option router: which ante chain a tx goes through, chosen by its first extension
 * option's type URL (Ethermint's NewAnteHandler: `/ethermint.evm.v1.ExtensionOptionsEthereumTx`
 * → the EVM chain, `/ethermint.types.v1.ExtensionOptionsWeb3Tx` → the EIP-712 chain). A tx
 * without options, or whose first option nobody registered, takes the default chain — whose
 * ExtensionOptions decorator refuses options it does not know (31 "unknown extension options"),
 * so the SDK's order of checks is kept for those.
 */
import type { DecodedTx } from '../tx.js';
import { withInsertions, type AnteChain, type AnteInsertion } from './types.js';

export class AnteRouter {
  private readonly routes = new Map<string, AnteChain>();

  constructor(private chain: AnteChain) {}

  /** The chain of txs without a routed extension option (Cosmos txs). */
  get defaultChain(): AnteChain {
    return this.chain;
  }

  /** Adds module decorators to the default chain (at app wiring time). */
  extendDefault(insertions: readonly AnteInsertion[]): void {
    this.chain = withInsertions(this.chain, insertions);
  }

  /** Routes txs whose first extension option is `typeUrl` to `chain`. A type URL is registered once. */
  register(typeUrl: string, chain: AnteChain): void {
    if (!/^\/[A-Za-z0-9_.]+$/.test(typeUrl)) throw new Error(`invalid extension option type URL "${typeUrl}"`);
    if (this.routes.has(typeUrl)) throw new Error(`an ante chain is already registered for extension option ${typeUrl}`);
    if (chain.length === 0) throw new Error(`the ante chain for ${typeUrl} has no decorators`);
    this.routes.set(typeUrl, chain);
  }

  /** The registered routes, by type URL. */
  registered(): ReadonlyMap<string, AnteChain> {
    return this.routes;
  }

  select(tx: DecodedTx): AnteChain {
    const first = tx.extensionOptions[0];
    if (first === undefined) return this.chain;
    return this.routes.get(first.typeUrl) ?? this.chain;
  }
}
