/**
 * src/node/codec/files.ts lists every generated file, and src/gen matches proto/.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PROTO_FILES, protoFileByName, protoRegistry } from '../../../src/node/codec/index.js';

const ROOT = join(import.meta.dirname, '..', '..', '..');

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith(suffix))
    .map((name) => relative(dir, join(dir, name)).split('\\').join('/'))
    .sort();
}

describe('generated files', () => {
  it('has one generated file per .proto file, and files.ts lists them all', () => {
    const protos = filesUnder(join(ROOT, 'proto'), '.proto');
    const generated = filesUnder(join(ROOT, 'src', 'gen'), '_pb.ts').map((name) => name.replace(/_pb\.ts$/, '.proto'));
    expect(generated).toEqual(protos);
    expect(PROTO_FILES.map((file) => file.proto.name).sort()).toEqual(protos);
  });

  it('resolves files by import path and symbols by full name', () => {
    expect(protoFileByName('cosmos/bank/v1beta1/query.proto')?.services[0].typeName).toBe('cosmos.bank.v1beta1.Query');
    expect(protoFileByName('google/protobuf/any.proto')).toBeDefined();
    expect(protoRegistry.getService('cosmos.tx.v1beta1.Service')?.methods.map((m) => m.name)).toContain('BroadcastTx');
    expect(protoRegistry.getMessage('tendermint.abci.ExecTxResult')).toBeDefined();
  });
});
