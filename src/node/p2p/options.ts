/**
 * [p2p] options with CometBFT's config.toml names (config/config.go P2PConfig) and defaults. The
 * node's config loader maps config.toml onto these.
 */
export interface P2POptions {
  /** laddr: where to accept connections ("" = do not listen). */
  laddr: string;
  /** external_address: the address advertised to peers ("" = laddr). */
  externalAddress: string;
  /** seeds: id@host:port, comma-separated; used when the address book has too few peers. */
  seeds: string;
  /** persistent_peers: id@host:port, comma-separated; always (re)connected. */
  persistentPeers: string;
  /** addr_book_file (relative to home). */
  addrBookFile: string;
  /** addr_book_strict: keep only routable (public) addresses in the address book. */
  addrBookStrict: boolean;
  maxNumInboundPeers: number;
  /** Excluding persistent peers. */
  maxNumOutboundPeers: number;
  /** unconditional_peer_ids: connected regardless of the limits. */
  unconditionalPeerIds: string;
  /** persistent_peers_max_dial_period: cap on the wait between redials (0 = back off exponentially). */
  persistentPeersMaxDialPeriodMs: number;
  flushThrottleTimeoutMs: number;
  maxPacketMsgPayloadSize: number;
  /** send_rate / recv_rate in bytes per second. */
  sendRate: number;
  recvRate: number;
  /** pex: run the peer-exchange reactor. */
  pex: boolean;
  /** seed_mode: crawl the network, answer address requests, then hang up. */
  seedMode: boolean;
  /** private_peer_ids: never gossiped to other peers. */
  privatePeerIds: string;
  allowDuplicateIp: boolean;
  handshakeTimeoutMs: number;
  dialTimeoutMs: number;
  /** How long a misbehaving peer is refused (tokend; CometBFT bans for the address book's ban time). */
  banDurationMs: number;
}

export const defaultP2POptions: Readonly<P2POptions> = Object.freeze({
  laddr: 'tcp://0.0.0.0:26656',
  externalAddress: '',
  seeds: '',
  persistentPeers: '',
  addrBookFile: 'config/addrbook.json',
  addrBookStrict: true,
  maxNumInboundPeers: 40,
  maxNumOutboundPeers: 10,
  unconditionalPeerIds: '',
  persistentPeersMaxDialPeriodMs: 0,
  flushThrottleTimeoutMs: 100,
  maxPacketMsgPayloadSize: 1024,
  sendRate: 5_120_000,
  recvRate: 5_120_000,
  pex: true,
  seedMode: false,
  privatePeerIds: '',
  allowDuplicateIp: false,
  handshakeTimeoutMs: 20_000,
  dialTimeoutMs: 3_000,
  banDurationMs: 60 * 60 * 1000,
});
