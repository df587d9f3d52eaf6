/**
 * The build's type index (dist/gen/types.json, scripts/gen-type-index.js), from which the CLI loads
 * only the generated files whose types an answer's Anys carry (src/node/codec/lazyTypes.ts): every
 * message type of every proto file tokend is built with, each mapped to the file declaring it.
 * Needs `npm run build`, as the end-to-end tests do.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { nestedTypes } from '@bufbuild/protobuf/reflect';
import { PROTO_FILES } from '../../src/node/codec/files.js';
import { REPO_ROOT } from '../helpers/cli.js';

describe('the generated files type index', () => {
  it('maps every message type to its proto file', () => {
    const index = JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'gen', 'types.json'), 'utf8')) as Record<string, string>;
    const expected: Record<string, string> = {};
    for (const file of PROTO_FILES) {
      for (const type of nestedTypes(file)) if (type.kind === 'message') expected[type.typeName] = file.name;
    }
    expect(Object.keys(expected).length).toBeGreaterThan(500);
    expect(Object.fromEntries(Object.keys(expected).map((name) => [name, index[name]]))).toEqual(expected);
  });
});
