/**
 * The keyring factory: the one place that picks a backend, importing its module lazily so that
 * a command using the `test` backend never loads keytar (native) and vice versa.
 */
import { join, resolve } from 'node:path';
import { TokendError } from '../util/errors.js';
import { StoreKeyring } from './keyring.js';
import { KEYRING_BACKENDS, type Keyring, type KeyringBackendName, type OpenKeyringOptions } from './types.js';

export function isKeyringBackendName(value: string): value is KeyringBackendName {
  return (KEYRING_BACKENDS as readonly string[]).includes(value);
}

export function parseKeyringBackend(value: string): KeyringBackendName {
  if (isKeyringBackendName(value)) return value;
  throw new TokendError('INVALID_ARGUMENT', `unknown keyring backend "${value}"`, {
    hint: `use one of: ${KEYRING_BACKENDS.join(', ')}`,
  });
}

/** Directory of an on-disk backend, as the SDK lays it out: `<home>/keyring-<backend>`. */
export function keyringDirectory(home: string, backend: 'file' | 'test'): string {
  return join(resolve(home), `keyring-${backend}`);
}

export async function openKeyring(options: OpenKeyringOptions): Promise<Keyring> {
  const backend = parseKeyringBackend(options.backend);
  switch (backend) {
    case 'memory': {
      const { MemoryKeyStore } = await import('./backends/memory.js');
      return new StoreKeyring(new MemoryKeyStore());
    }
    case 'test': {
      const { TestKeyStore } = await import('./backends/test.js');
      return new StoreKeyring(new TestKeyStore(keyringDirectory(options.home, 'test')));
    }
    case 'file': {
      const { FileKeyStore } = await import('./backends/file.js');
      return new StoreKeyring(
        new FileKeyStore({
          dir: keyringDirectory(options.home, 'file'),
          passphrase: options.passphrase,
          passphraseAttempts: options.passphraseAttempts,
        }),
      );
    }
    case 'os': {
      const { openOsKeyStore } = await import('./backends/os.js');
      return new StoreKeyring(await openOsKeyStore({ serviceName: options.serviceName }));
    }
  }
}
