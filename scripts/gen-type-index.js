// Build step (`npm run build`, after the compile, scripts/transpile.js): writes dist/gen/types.json, every protobuf message type
// of the generated files (dist/gen/**/*_pb.js) and the file it is declared in, e.g.
// "cosmos.auth.v1beta1.BaseAccount": "cosmos/auth/v1beta1/auth". The CLI reads it to load only the
// files whose types an answer's Anys carry (src/node/codec/lazyTypes.ts) instead of every module.
import { readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nestedTypes } from '@bufbuild/protobuf/reflect';

const gen = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'gen');

/** Every generated file under `dir`, in a stable order. */
function pbFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((file) => file.endsWith('_pb.js'))
    .map((file) => join(dir, file))
    .sort();
}

const index = {};
for (const path of pbFiles(gen)) {
  const name = relative(gen, path).split(sep).join('/').slice(0, -'_pb.js'.length);
  for (const value of Object.values(await import(pathToFileURL(path).href))) {
    if (value?.kind !== 'file') continue;
    for (const type of nestedTypes(value)) if (type.kind === 'message') index[type.typeName] ??= name;
  }
}
writeFileSync(join(gen, 'types.json'), JSON.stringify(index));
process.stderr.write(`gen-type-index: ${Object.keys(index).length} message types\n`);
