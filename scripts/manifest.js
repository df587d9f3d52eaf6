// Build step (`npm run build`, last): writes oclif.manifest.json, what oclif reads to find a command
// without loading every command file. It is what `oclif manifest` (the oclif CLI package) writes —
// the root plugin loaded from its command files with the manifest ignored, its `manifest` as JSON —
// through @oclif/core's own Plugin class, so the build needs no second oclif package (the CLI
// package brought ~115 more packages to install) and makes no network call.
import { Plugin } from '@oclif/core';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const plugin = new Plugin({ root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, respectNoCacheDefault: true });
await plugin.load();
// The commands in id order: the plugin loads command files concurrently, so its own order varies
// from build to build.
const commands = Object.fromEntries(Object.keys(plugin.manifest.commands).sort().map((id) => [id, plugin.manifest.commands[id]]));
const file = join(root, 'oclif.manifest.json');
// Without indentation: every command reads and parses the file (1.4 MB indented, 0.9 MB not).
writeFileSync(file, JSON.stringify({ ...plugin.manifest, commands }));
process.stdout.write(`wrote ${Object.keys(plugin.manifest.commands).length} commands to ${file}\n`);
