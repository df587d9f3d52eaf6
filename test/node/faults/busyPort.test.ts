/**
 * A node whose gRPC or Prometheus port is taken does not start: one line names the port, and the
 * servers that did start meanwhile (they start together, each on its own thread) are stopped
 * again — their ports are free and the home can be started at once.
 */
import { afterAll, expect, it, jest } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import { devnetHome, removeHomes, startFast } from './helpers.js';

jest.setTimeout(60_000);

const homes: string[] = [];
afterAll(() => removeHomes(homes));

function listen(port = 0): Promise<Server> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: Server): number => (server.address() as { port: number }).port;
const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

/**
 * Takes a port, finds two free ones for the RPC and the REST gateway, and expects `start` (given
 * the taken port and those two) to fail with `message`; then the two are free again (the servers
 * that had started were stopped).
 */
async function expectBusyPortRefused(start: (taken: string, rpcLaddr: string, apiAddress: string) => Promise<unknown>, message: (taken: string) => string): Promise<void> {
  const taken = await listen();
  const probes = [await listen(), await listen()];
  const [rpcPort, apiPort] = probes.map(portOf);
  for (const probe of probes) await close(probe);
  try {
    const at = `127.0.0.1:${portOf(taken)}`;
    await expect(start(at, `tcp://127.0.0.1:${rpcPort}`, `tcp://127.0.0.1:${apiPort}`)).rejects.toMatchObject({ message: message(at) });
    for (const port of [rpcPort!, apiPort!]) await close(await listen(port));
  } finally {
    await close(taken);
  }
}

it('a busy gRPC port fails the start with one line; the RPC and REST ports it had taken are free again', async () => {
  const home = await devnetHome('busy-port', homes);
  await expectBusyPortRefused(
    (grpcAddress, rpcLaddr, apiAddress) => startFast(home, { grpcAddress, rpcLaddr, apiAddress }),
    (at) => `cannot listen for gRPC on ${at}: address already in use`,
  );
  const node = await startFast(home);
  await node.stop();
});

it('a busy Prometheus port fails the start with one line; the RPC and REST ports are free again', async () => {
  const home = await devnetHome('busy-metrics', homes);
  await expectBusyPortRefused(
    (metricsAt, rpcLaddr, apiAddress) =>
      startFast(home, {
        rpcLaddr,
        apiAddress,
        nodeConfig: (c) => {
          c.instrumentation.prometheus = true;
          c.instrumentation.prometheusListenAddr = metricsAt;
        },
      }),
    (at) => `cannot listen for Prometheus on ${at}: address already in use`,
  );
});
