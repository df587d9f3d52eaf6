/** Jest globalTeardown: stops the Secret Service started by test/setup/secret-service.ts. */
import { rmSync } from 'node:fs';

// Jest loads global hooks through its CommonJS require hook, which does not map `.js` imports to
// `.ts` files, so the setup's constant and state shape are repeated here.
const SECRET_SERVICE_STATE_ENV = 'TOKEND_TEST_SECRET_SERVICE';

interface SecretServiceState {
  dir: string;
  dbusPid: number;
  keyringPid: number;
  previousBusAddress?: string;
}

const STOP_TIMEOUT_MS = 2000;

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then wait until Node has reaped the child (it is ours), so no zombie outlives jest. */
async function stop(pid: number): Promise<void> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // already gone
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (isRunning(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
}

export default async function teardownSecretService(): Promise<void> {
  const text = process.env[SECRET_SERVICE_STATE_ENV];
  if (!text) return;
  const state = JSON.parse(text) as SecretServiceState;
  // Only the two processes the setup started, by their ids.
  await stop(state.keyringPid);
  await stop(state.dbusPid);
  rmSync(state.dir, { recursive: true, force: true });
  if (state.previousBusAddress === undefined) delete process.env.DBUS_SESSION_BUS_ADDRESS;
  else process.env.DBUS_SESSION_BUS_ADDRESS = state.previousBusAddress;
  delete process.env[SECRET_SERVICE_STATE_ENV];
}
