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

it('a busy gRPC port fails the start with one line; the RPC and REST ports it had taken are free again', async () => {
  const home = await devnetHome('busy-port', homes);
  const taken = await listen();
  // Two free ports for the RPC and the REST gateway (found, then given back).
  const probes = [await listen(), await listen()];
  const [rpcPort, apiPort] = probes.map(portOf);
  for (const probe of probes) await close(probe);
  try {
    await expect(startFast(home, { grpcAddress: `127.0.0.1:${portOf(taken)}`, rpcLaddr: `tcp://127.0.0.1:${rpcPort}`, apiAddress: `tcp://127.0.0.1:${apiPort}` })).rejects.toMatchObject({
      message: `cannot listen for gRPC on 127.0.0.1:${portOf(taken)}: address already in use`,
    });
    for (const port of [rpcPort!, apiPort!]) await close(await listen(port));
    const node = await startFast(home);
    await node.stop();
  } finally {
    await close(taken);
  }
});

it('a busy Prometheus port fails the start with one line; the RPC and REST ports are free again', async () => {
  const home = await devnetHome('busy-metrics', homes);
  const taken = await listen();
  const probes = [await listen(), await listen()];
  const [rpcPort, apiPort] = probes.map(portOf);
  for (const probe of probes) await close(probe);
  try {
    const metricsAt = `127.0.0.1:${portOf(taken)}`;
    await expect(
      startFast(home, { rpcLaddr: `tcp://127.0.0.1:${rpcPort}`, apiAddress: `tcp://127.0.0.1:${apiPort}`, nodeConfig: (c) => {
        c.instrumentation.prometheus = true;
        c.instrumentation.prometheusListenAddr = metricsAt;
      } }),
    ).rejects.toMatchObject({ message: `cannot listen for Prometheus on ${metricsAt}: address already in use` });
    for (const port of [rpcPort!, apiPort!]) await close(await listen(port));
  } finally {
    await close(taken);
  }
});
