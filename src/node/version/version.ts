/** Version information, shared by `tokend version` and the node-info RPC/REST answers. */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const APP_NAME = 'tokend';

export interface BuildDep {
  path: string;
  version: string;
  sum: string;
}

export interface VersionInfo {
  name: string;
  app_name: string;
  version: string;
  git_commit: string;
  build_tags: string;
  node_version: string;
  build_deps: BuildDep[];
  cosmos_sdk_version: string;
  cometbft_version: string;
}

/** The upstream versions whose wire formats tokend speaks. */
export const COMPAT_COSMOS_SDK_VERSION = 'v0.50';
export const COMPAT_COMETBFT_VERSION = '0.38.17';

/** The dependencies that shape behaviour; reported by `version --long`. */
const MAIN_DEPENDENCIES = [
  '@oclif/core',
  '@noble/curves',
  '@noble/hashes',
  '@scure/bip39',
  '@scure/bip32',
  '@bufbuild/protobuf',
  'classic-level',
  'ethers',
  'undici',
];

let root: string | undefined;

/**
 * The package's root: the nearest directory above this file whose package.json names tokend. This
 * file may run from src/node/version, dist/node/version or a chunk of the CLI bundle
 * (dist/bundle/chunks), so the depth is not fixed.
 */
function packageRoot(): string {
  if (root !== undefined) return root;
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    if (readJson(join(dir, 'package.json'))?.name === APP_NAME) return (root = dir);
    if (dirname(dir) === dir) return (root = join(here, '..', '..', '..'));
  }
}

function readJson(path: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export function appVersion(): string {
  return String(readJson(join(packageRoot(), 'package.json'))?.version ?? '0.0.0');
}

export function versionInfo(): VersionInfo {
  const root = packageRoot();
  const build = readJson(join(root, 'dist', 'build-info.json')) ?? {};
  const require = createRequire(join(root, 'package.json'));
  const deps: BuildDep[] = [];
  for (const name of MAIN_DEPENDENCIES) {
    let version = '';
    try {
      const pkgPath = require.resolve(`${name}/package.json`);
      if (existsSync(pkgPath)) version = String(readJson(pkgPath)?.version ?? '');
    } catch {
      // Packages whose exports map hides package.json: find it by walking node_modules.
      const fallback = join(root, 'node_modules', name, 'package.json');
      version = String(readJson(fallback)?.version ?? '');
    }
    deps.push({ path: name, version: version ? `v${version}` : '(missing)', sum: '' });
  }
  return {
    name: APP_NAME,
    app_name: APP_NAME,
    version: appVersion(),
    git_commit: String(build.git_commit ?? ''),
    build_tags: String(build.build_tags ?? ''),
    node_version: `node ${process.version} ${process.platform}/${process.arch}`,
    build_deps: deps,
    cosmos_sdk_version: COMPAT_COSMOS_SDK_VERSION,
    cometbft_version: COMPAT_COMETBFT_VERSION,
  };
}
