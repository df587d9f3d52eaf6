/**
 * Peers behind an interface. The engine broadcasts its own proposals, block parts and votes and
 * receives the peers' through a `Transport`; a p2p layer (CometBFT's MConnection reactors, later)
 * or the in-memory network below implements it. With one validator nothing is sent, but the
 * engine never assumes it is alone.
 */
import { decodePeerMessage, encodePeerMessage, type PeerMessage } from './state/messages.js';

export type PeerMessageHandler = (message: PeerMessage, peerId: string) => void;

export interface Transport {
  /** Send to every connected peer. */
  broadcast(message: PeerMessage): void;
  /** Send to one peer (catch-up replies). */
  send(peerId: string, message: PeerMessage): void;
  /** Register the engine's handler for incoming messages. */
  onMessage(handler: PeerMessageHandler): void;
  /** IDs of connected peers. */
  peers(): string[];
  close(): void;
}

/** A transport with no peers (a single node). */
export class NoopTransport implements Transport {
  broadcast(): void {}
  send(): void {}
  onMessage(): void {}
  peers(): string[] {
    return [];
  }
  close(): void {}
}

interface MemoryEndpoint {
  id: string;
  handler?: PeerMessageHandler;
  connected: boolean;
}

/**
 * An in-process network: every endpoint reaches every other connected endpoint. Messages are
 * serialized to protobuf bytes and delivered asynchronously in order per link, so engines never
 * share object references (as over a real wire). `setConnected(id, false)` takes a node offline.
 */
export class MemoryNetwork {
  private readonly endpoints = new Map<string, MemoryEndpoint>();
  /** Optional delay per message in ms (0 = next macrotask). */
  constructor(private readonly latencyMs = 0) {}

  transport(id: string): Transport {
    const endpoint: MemoryEndpoint = { id, connected: true };
    this.endpoints.set(id, endpoint);
    const endpoints = this.endpoints;
    const deliver = (to: MemoryEndpoint, bytes: Uint8Array): void => this.deliver(endpoint, to, bytes);
    return {
      broadcast(message: PeerMessage): void {
        if (!endpoint.connected) return;
        const bytes = encodePeerMessage(message);
        for (const peer of endpoints.values()) if (peer.id !== id) deliver(peer, bytes);
      },
      send(peerId: string, message: PeerMessage): void {
        const peer = endpoints.get(peerId);
        if (peer && endpoint.connected) deliver(peer, encodePeerMessage(message));
      },
      onMessage(handler: PeerMessageHandler): void {
        endpoint.handler = handler;
      },
      peers(): string[] {
        return [...endpoints.values()].filter((p) => p.id !== id && p.connected && endpoint.connected).map((p) => p.id);
      },
      close(): void {
        endpoint.connected = false;
        endpoints.delete(id);
      },
    };
  }

  setConnected(id: string, connected: boolean): void {
    const endpoint = this.endpoints.get(id);
    if (endpoint) endpoint.connected = connected;
  }

  private deliver(from: MemoryEndpoint, to: MemoryEndpoint, bytes: Uint8Array): void {
    const run = (): void => {
      if (!from.connected || !to.connected || !to.handler) return;
      to.handler(decodePeerMessage(bytes), from.id);
    };
    if (this.latencyMs > 0) setTimeout(run, this.latencyMs);
    else setImmediate(run);
  }
}
