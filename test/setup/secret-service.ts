/**
 * Jest globalSetup: a private, unlocked Secret Service for the `os` keyring backend's tests.
 *
 * Starts a D-Bus session bus of our own (no service activation, so nothing else gets launched)
 * and `gnome-keyring-daemon --unlock --components=secrets` on it, with HOME and XDG_* pointing
 * into a temporary directory so the user's real keyrings are never touched. Then a child process
 * stores, reads and deletes a probe secret through keytar, the same path the tests use.
 *
 * On success DBUS_SESSION_BUS_ADDRESS and SECRET_SERVICE_STATE_ENV are set in process.env (jest
 * workers inherit them). On failure SECRET_SERVICE_UNAVAILABLE_ENV holds the reason, and the os
 * tests skip with that reason in their titles (or fail, when REQUIRE_OS_KEYRING_ENV=1 as in CI).
 * test/setup/secret-service-teardown.ts stops both daemons.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SECRET_SERVICE_STATE_ENV = 'TOKEND_TEST_SECRET_SERVICE';
export const SECRET_SERVICE_UNAVAILABLE_ENV = 'TOKEND_TEST_SECRET_SERVICE_UNAVAILABLE';
export const REQUIRE_OS_KEYRING_ENV = 'TOKEND_REQUIRE_OS_KEYRING';

const START_TIMEOUT_MS = 5000;
const KEYRING_PASSWORD = 'tokend-test-keyring';

export interface SecretServiceState {
  dir: string;
  busAddress: string;
  dbusPid: number;
  keyringPid: number;
  previousBusAddress?: string;
}

function commandExists(command: string): boolean {
  const result = spawnSync(command, ['--version'], { stdio: 'ignore', timeout: 2000 });
  return !(result.error && (result.error as NodeJS.ErrnoException).code === 'ENOENT');
}

function busConfig(socketPath: string): string {
  // The stock session.conf minus <standard_session_servicedirs/>: no activation of real services.
  return `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=${socketPath}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`;
}

/** Resolves with the first stdout line of `child`, or rejects on exit/timeout. */
function firstLine(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf('\n');
      if (newline !== -1) {
        clearTimeout(timer);
        resolve(buffered.slice(0, newline).trim());
      }
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with code ${code}: ${stderr.trim().split('\n')[0] ?? ''}`));
    });
  });
}

/** Store/read/delete through keytar in a child process, retrying until the daemon answers. */
function probeWithKeytar(env: NodeJS.ProcessEnv): Promise<void> {
  const script = `
const deadline = Date.now() + ${START_TIMEOUT_MS};
(async () => {
  let keytar;
  try { keytar = require('keytar'); } catch (err) { console.log('keytar cannot be loaded: ' + err.message.split('\\n')[0]); process.exit(2); }
  let lastError = 'no attempt';
  while (Date.now() < deadline) {
    try {
      await keytar.setPassword('tokend-probe', 'probe', 'ok');
      const value = await keytar.getPassword('tokend-probe', 'probe');
      await keytar.deletePassword('tokend-probe', 'probe');
      if (value === 'ok') { console.log('ok'); process.exit(0); }
      lastError = 'probe secret read back wrong';
    } catch (err) { lastError = err.message.split('\\n')[0]; }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  console.log(lastError);
  process.exit(1);
})();`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { env, cwd: process.cwd(), stdio: ['ignore', 'pipe', 'ignore'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(output.trim() || `probe exited with ${code}`))));
  });
}

function stop(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    // already gone
  }
}

async function startSecretService(): Promise<SecretServiceState> {
  if (process.platform !== 'linux') throw new Error(`no Secret Service test harness on ${process.platform}`);
  if (!commandExists('dbus-daemon')) throw new Error('dbus-daemon not found (install the Debian package dbus)');
  if (!commandExists('gnome-keyring-daemon')) throw new Error('gnome-keyring-daemon not found (install gnome-keyring)');

  const dir = mkdtempSync(join(tmpdir(), 'tokend-secret-service-'));
  const runtimeDir = join(dir, 'run');
  mkdirSync(runtimeDir, { mode: 0o700 });
  chmodSync(runtimeDir, 0o700);
  writeFileSync(join(dir, 'bus.conf'), busConfig(join(dir, 'bus')));

  let dbus: ChildProcess | undefined;
  let keyring: ChildProcess | undefined;
  try {
    dbus = spawn('dbus-daemon', ['--nofork', `--config-file=${join(dir, 'bus.conf')}`, '--print-address=1'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const busAddress = await firstLine(dbus, 'dbus-daemon');

    const daemonEnv: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_DATA_HOME: join(dir, 'data'),
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_CACHE_HOME: join(dir, 'cache'),
      XDG_RUNTIME_DIR: runtimeDir,
      DBUS_SESSION_BUS_ADDRESS: busAddress,
    };
    keyring = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env: daemonEnv,
      stdio: ['pipe', 'ignore', 'ignore'],
      detached: true,
    });
    keyring.once('error', () => undefined); // reported by the probe instead
    keyring.stdin?.end(KEYRING_PASSWORD);

    await probeWithKeytar({ ...process.env, DBUS_SESSION_BUS_ADDRESS: busAddress });

    for (const child of [dbus, keyring]) {
      child.stdout?.destroy();
      child.stderr?.destroy();
      child.unref(); // do not keep jest alive; teardown stops them
    }
    return {
      dir,
      busAddress,
      dbusPid: dbus.pid as number,
      keyringPid: keyring.pid as number,
      previousBusAddress: process.env.DBUS_SESSION_BUS_ADDRESS,
    };
  } catch (err) {
    stop(keyring?.pid);
    stop(dbus?.pid);
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}

export default async function setupSecretService(): Promise<void> {
  const started = Date.now();
  try {
    const state = await startSecretService();
    process.env.DBUS_SESSION_BUS_ADDRESS = state.busAddress;
    process.env[SECRET_SERVICE_STATE_ENV] = JSON.stringify(state);
    delete process.env[SECRET_SERVICE_UNAVAILABLE_ENV];
    if (process.env.TOKEND_TEST_VERBOSE) console.log(`secret service up in ${Date.now() - started} ms`);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    process.env[SECRET_SERVICE_UNAVAILABLE_ENV] = reason;
    delete process.env[SECRET_SERVICE_STATE_ENV];
    console.warn(`\n[secret-service] os keyring tests will be skipped: ${reason}`);
  }
}
