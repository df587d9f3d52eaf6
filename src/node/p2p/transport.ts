/**
 * Connections between nodes (p2p/transport.go): TCP, upgraded with the secret connection and the
 * node-info handshake before anything else is read. A dialed peer must prove the node ID we
 * dialed; every peer must announce the ID of the key it proved, another ID than ours, the same
 * chain and block version, and a channel we have.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { NodeKey } from '../consensus/privval.js';
import { nodeIdFromPubKey } from '../consensus/privval.js';
import { ByteQueue, delimit } from './conn/byteQueue.js';
import { MConnection, type ChannelDescriptor, type MConnectionOptions } from './conn/mconnection.js';
import { makeSecretConnection, type SecretConnection } from './conn/secretConnection.js';
import { P2PError } from './errors.js';
import { normalizeIp, type NetAddress } from './netAddress.js';
import { MAX_NODE_INFO_BYTES, checkCompatible, decodeNodeInfo, encodeNodeInfo, validateNodeInfo, type NodeInfo } from './nodeInfo.js';
import type { PeerConnection, UpgradedConnection } from './peer.js';

export interface Transport {
  /** Start accepting; resolves with the bound address. */
  listen(host: string, port: number): Promise<{ host: string; port: number }>;
  /** Called for every inbound connection that passed the handshakes. */
  onInbound(handler: (conn: UpgradedConnection) => void): void;
  /** Called when an inbound connection failed its handshakes (for logs). */
  onInboundRejected(handler: (err: Error, remote: string) => void): void;
  /** Decide before the handshake whether to take an inbound connection from this IP (undefined = yes). */
  setAcceptFilter(filter: (remoteIp: string) => string | undefined): void;
  dial(addr: NetAddress): Promise<UpgradedConnection>;
  close(): Promise<void>;
}

/** The checks of MultiplexTransport.upgrade after the node info exchange. */
export function checkPeer(ours: NodeInfo, theirs: NodeInfo, authenticatedId: string): void {
  validateNodeInfo(theirs);
  if (authenticatedId !== theirs.id) {
    throw new P2PError('ID_MISMATCH', `conn.ID (${authenticatedId}) NodeInfo.ID (${theirs.id}) mismatch`);
  }
  if (ours.id === theirs.id) throw new P2PError('SELF', 'cannot connect to self');
  checkCompatible(ours, theirs);
}

export interface TcpTransportOptions {
  handshakeTimeoutMs: number;
  dialTimeoutMs: number;
  mconnection: MConnectionOptions;
}

/** Exchange node infos over the secret connection (handshake()). */
function exchangeNodeInfo(conn: SecretConnection, ours: NodeInfo, timeoutMs: number): Promise<NodeInfo> {
  return new Promise<NodeInfo>((resolve, reject) => {
    const queue = new ByteQueue();
    let done = false;
    const finish = (err: Error | undefined, info?: NodeInfo, leftover?: Buffer): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      conn.socket.off('close', onClose);
      conn.detach(leftover);
      if (err) reject(err);
      else resolve(info!);
    };
    const timer = setTimeout(() => finish(new P2PError('TIMEOUT', `node info handshake timed out after ${timeoutMs}ms`)), timeoutMs);
    const onClose = (): void => finish(new P2PError('CLOSED', 'connection closed during the node info handshake'));
    conn.socket.once('close', onClose);
    conn.onError((err) => finish(err));
    conn.onData((data) => {
      queue.push(data);
      let msg: Buffer | undefined;
      try {
        msg = queue.takeDelimited(MAX_NODE_INFO_BYTES);
      } catch (err) {
        finish(new P2PError('HANDSHAKE', `handshake failed: ${(err as Error).message}`));
        return;
      }
      if (!msg) return;
      let info: NodeInfo;
      try {
        info = decodeNodeInfo(msg);
      } catch (err) {
        finish(new P2PError('HANDSHAKE', `handshake failed: cannot decode node info: ${(err as Error).message}`));
        return;
      }
      finish(undefined, info, queue.length > 0 ? queue.take(queue.length) : undefined);
    });
    conn.write(delimit(encodeNodeInfo(ours)));
  });
}

export class TcpTransport implements Transport {
  private server: Server | undefined;
  private inboundHandler: ((conn: UpgradedConnection) => void) | undefined;
  private rejectedHandler: ((err: Error, remote: string) => void) | undefined;
  private acceptFilter: ((remoteIp: string) => string | undefined) | undefined;
  private readonly pending = new Set<Socket>();
  private closed = false;

  constructor(
    private readonly nodeKey: NodeKey,
    private readonly nodeInfo: () => NodeInfo,
    private readonly options: TcpTransportOptions,
  ) {}

  onInbound(handler: (conn: UpgradedConnection) => void): void {
    this.inboundHandler = handler;
  }

  onInboundRejected(handler: (err: Error, remote: string) => void): void {
    this.rejectedHandler = handler;
  }

  setAcceptFilter(filter: (remoteIp: string) => string | undefined): void {
    this.acceptFilter = filter;
  }

  listen(host: string, port: number): Promise<{ host: string; port: number }> {
    return new Promise((resolve, reject) => {
      const server = createServer((socket) => this.accept(socket));
      server.once('error', (err: NodeJS.ErrnoException) => {
        reject(
          new P2PError('INVALID_ADDRESS', `cannot listen on ${host}:${port} for p2p: ${err.code === 'EADDRINUSE' ? 'address already in use' : err.message}`, {
            hint: 'change p2p.laddr in config.toml (or stop the process using that port)',
          }),
        );
      });
      server.listen(port, host, () => {
        this.server = server;
        const address = server.address();
        resolve({ host, port: typeof address === 'object' && address ? address.port : port });
      });
    });
  }

  private accept(socket: Socket): void {
    const remoteIp = normalizeIp(socket.remoteAddress ?? '');
    const remote = `${remoteIp}:${socket.remotePort ?? 0}`;
    socket.setNoDelay(true);
    socket.on('error', () => undefined);
    const refused = this.closed ? 'transport closed' : this.acceptFilter?.(remoteIp);
    if (refused) {
      socket.destroy();
      this.rejectedHandler?.(new P2PError('FILTERED', refused), remote);
      return;
    }
    this.pending.add(socket);
    this.upgrade(socket, undefined)
      .then((conn) => {
        this.pending.delete(socket);
        if (this.closed) conn.close();
        else this.inboundHandler?.(conn);
      })
      .catch((err: Error) => {
        this.pending.delete(socket);
        socket.destroy();
        this.rejectedHandler?.(err, remote);
      });
  }

  dial(addr: NetAddress): Promise<UpgradedConnection> {
    return new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host: addr.host, port: addr.port });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new P2PError('DIAL_FAILED', `dial ${addr.host}:${addr.port}: i/o timeout after ${this.options.dialTimeoutMs}ms`));
      }, this.options.dialTimeoutMs);
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.off('error', onError);
        socket.on('error', () => undefined);
        resolve(socket);
      });
      const onError = (err: NodeJS.ErrnoException): void => {
        clearTimeout(timer);
        reject(new P2PError('DIAL_FAILED', `dial ${addr.host}:${addr.port}: ${err.code ?? err.message}`));
      };
      socket.once('error', onError);
    }).then(async (socket) => {
      socket.setNoDelay(true);
      this.pending.add(socket);
      try {
        return await this.upgrade(socket, addr);
      } finally {
        this.pending.delete(socket);
      }
    });
  }

  private async upgrade(socket: Socket, dialed: NetAddress | undefined): Promise<UpgradedConnection> {
    const secret = await makeSecretConnection(socket, this.nodeKey.privateKey, this.options.handshakeTimeoutMs);
    const connId = nodeIdFromPubKey(secret.remotePubKey);
    if (dialed && dialed.id !== connId) {
      socket.destroy();
      throw new P2PError('ID_MISMATCH', `conn.ID (${connId}) dialed ID (${dialed.id}) mismatch`);
    }
    const ours = this.nodeInfo();
    let theirs: NodeInfo;
    try {
      theirs = await exchangeNodeInfo(secret, ours, this.options.handshakeTimeoutMs);
      checkPeer(ours, theirs, connId);
    } catch (err) {
      socket.destroy();
      throw err;
    }
    const remoteIp = normalizeIp(socket.remoteAddress ?? '');
    const socketAddr: NetAddress = dialed ?? { id: connId, host: remoteIp, port: socket.remotePort ?? 0 };
    const options = this.options.mconnection;
    return {
      nodeInfo: theirs,
      socketAddr,
      remoteIp,
      outbound: dialed !== undefined,
      open: (channels: readonly ChannelDescriptor[]): PeerConnection => {
        let mconn: MConnection | undefined;
        return {
          start(onReceive, onError): void {
            mconn = new MConnection(secret, channels, options, onReceive, onError);
            mconn.start();
          },
          send: (ch, msg) => mconn?.send(ch, msg) ?? false,
          canSend: (ch) => mconn?.canSend(ch) ?? false,
          stop: () => {
            if (mconn) mconn.stop();
            else socket.destroy();
          },
          status: () =>
            mconn?.status() ?? {
              durationMs: 0,
              sendMonitor: { startMs: 0, bytes: 0, curRate: 0, avgRate: 0, peakRate: 0, durationMs: 0, idleMs: 0 },
              recvMonitor: { startMs: 0, bytes: 0, curRate: 0, avgRate: 0, peakRate: 0, durationMs: 0, idleMs: 0 },
              channels: [],
            },
        };
      },
      close: () => socket.destroy(),
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const socket of this.pending) socket.destroy();
    this.pending.clear();
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
