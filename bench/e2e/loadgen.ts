/**
 * Load generator of the end-to-end benchmark, run as a separate process (so that its CPU is not
 * the node's, and its event loop does not pace the node's):
 *
 *   node --import tsx bench/e2e/loadgen.ts txs <rpcUrl> <txsFile> <connections> <rate> <outFile>
 *   node --import tsx bench/e2e/loadgen.ts rest <url> <rate> <seconds> [<json body>]
 *   node --import tsx bench/e2e/loadgen.ts grpc <host:port> <method path> <request hex> <rate> <seconds>
 *
 * txs: submits every tx of <txsFile> (base64, one a line) with `broadcast_tx_sync` over
 * <connections> keep-alive connections, at most <rate> tx/s (0: as fast as the node answers);
 * writes the wall-clock time (ms since the epoch) each tx was answered to <outFile> (JSON array by
 * line number, null when rejected) and prints {sent, accepted, rejected, errors, codes, seconds}.
 * rest: GETs <url> (POSTs <json body> to it when given: a JSON-RPC read) at <rate> requests/s
 * (open loop: a slow answer does not delay the next request) for <seconds> and prints {requests,
 * errors, rps, p50Ms, p99Ms, maxMs}. A JSON-RPC answer with an `error` member counts as an error.
 * grpc: the same for a unary gRPC call (plaintext HTTP/2, one connection; the request message as
 * hex, framed here); an answer whose grpc-status is not 0 counts as an error.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { connect, type ClientHttp2Session } from 'node:http2';

const [mode = 'txs', ...rest] = process.argv.slice(2);

function post(agent: Agent, url: URL, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function get(agent: Agent, url: URL): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function txs(): Promise<void> {
  const [rpcUrl = '', file = '', connectionsText = '50', rateText = '0', outFile = ''] = rest;
  const url = new URL(rpcUrl);
  const lines = readFileSync(file, 'utf8').split('\n').filter((line) => line !== '');
  const connections = Number(connectionsText);
  const rate = Number(rateText);
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const answered: (number | null)[] = lines.map(() => null);
  const codes: Record<string, number> = {};
  let next = 0;
  let accepted = 0;
  let rejected = 0;
  let errors = 0;
  const started = performance.now();
  async function worker(): Promise<void> {
    for (;;) {
      const i = next++;
      if (i >= lines.length) return;
      if (rate > 0) {
        const due = started + (i * 1000) / rate;
        const now = performance.now();
        if (due > now) await sleep(due - now);
      }
      try {
        const reply = JSON.parse(await post(agent, url, JSON.stringify({ jsonrpc: '2.0', id: i, method: 'broadcast_tx_sync', params: { tx: lines[i] } }))) as { result?: { code: number }; error?: unknown };
        const code = reply.result?.code ?? -1;
        codes[code] = (codes[code] ?? 0) + 1;
        if (code === 0) {
          accepted++;
          answered[i] = Date.now();
        } else rejected++;
      } catch {
        errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: connections }, () => worker()));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  writeFileSync(outFile, JSON.stringify(answered));
  process.stdout.write(`${JSON.stringify({ sent: lines.length, accepted, rejected, errors, codes, seconds })}\n`);
}

function grpcCall(session: ClientHttp2Session, path: string, frame: Buffer): Promise<number> {
  return new Promise((resolve, reject) => {
    const stream = session.request({ ':method': 'POST', ':path': path, 'content-type': 'application/grpc', te: 'trailers' });
    let status = -1;
    stream.on('response', (headers) => {
      if (headers['grpc-status'] !== undefined) status = Number(headers['grpc-status']);
    });
    stream.on('trailers', (trailers) => {
      status = Number(trailers['grpc-status'] ?? -1);
    });
    stream.on('error', reject);
    stream.resume();
    stream.on('end', () => resolve(status === 0 ? 200 : 500));
    stream.end(frame);
  });
}

async function restPoll(): Promise<void> {
  let call: () => Promise<number>;
  let close: () => void;
  let rateText: string | undefined;
  let secondsText: string | undefined;
  if (mode === 'grpc') {
    const [target = '', path = '', hex = ''] = rest;
    [, , , rateText, secondsText] = rest;
    const message = Buffer.from(hex, 'hex');
    const frame = Buffer.alloc(5 + message.length);
    frame.writeUInt32BE(message.length, 1);
    message.copy(frame, 5);
    const session = connect(`http://${target}`);
    call = () => grpcCall(session, path, frame);
    close = () => session.close();
  } else {
    const [target = '', rate = '200', seconds = '5', body] = rest;
    [rateText, secondsText] = [rate, seconds];
    const url = new URL(target);
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    call = () => (body === undefined ? get(agent, url) : post(agent, url, body).then((text) => ('error' in (JSON.parse(text) as object) ? 500 : 200)));
    close = () => agent.destroy();
  }
  const rate = Number(rateText ?? '200');
  const total = Math.round(rate * Number(secondsText ?? '5'));
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const inflight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const now = performance.now();
    if (due > now) await sleep(due - now);
    const t0 = performance.now();
    const answered = call();
    inflight.push(
      answered.then(
        (status) => {
          if (status !== 200) errors++;
          latencies.push(performance.now() - t0);
        },
        () => {
          errors++;
        },
      ),
    );
  }
  await Promise.all(inflight);
  const seconds = (performance.now() - started) / 1000;
  close();
  latencies.sort((a, b) => a - b);
  const pick = (q: number): number => (latencies.length === 0 ? 0 : +latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(2));
  process.stdout.write(`${JSON.stringify({ requests: latencies.length, errors, rps: Math.round(latencies.length / seconds), p50Ms: pick(0.5), p99Ms: pick(0.99), maxMs: pick(1) })}\n`);
}

await (mode === 'rest' || mode === 'grpc' ? restPoll() : txs());
