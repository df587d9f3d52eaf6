/**
 * The layering rules of eslint.config.js hold (docs/ARCHITECTURE.md): run the project's own
 * ESLint configuration on small sources placed where a mistake would be made.
 */
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { REPO_ROOT } from '../helpers/cli.js';

const eslint = new ESLint({ cwd: REPO_ROOT });

async function problems(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('layering', () => {
  test('classic-level is imported only under src/node/store/db', async () => {
    expect(await problems('src/node/rpc/x.ts', "import { ClassicLevel } from 'classic-level';\nexport const x = ClassicLevel;\n")).toEqual([expect.stringContaining('only src/node/store/db/ imports classic-level')]);
    expect(await problems('src/node/store/db/x.ts', "import { ClassicLevel } from 'classic-level';\nexport const x = ClassicLevel;\n")).toEqual([]);
  });

  test('the node library never imports the CLI', async () => {
    expect(await problems('src/node/api/x.ts', "import { BaseCommand } from '../../cli/base.js';\nexport const x = BaseCommand;\n")).toEqual([expect.stringContaining('never imports the CLI')]);
    expect(await problems('src/node/modules/bank/x.ts', "import X from '../../../commands/status.js';\nexport const x = X;\n")).toEqual([expect.stringContaining('never imports the CLI')]);
  });

  test('a module reaches another only through type imports; shared code and the platform are open', async () => {
    expect(await problems('src/node/modules/staking/x.ts', "import { BankKeeper } from '../bank/keeper.js';\nexport const x = BankKeeper;\n")).toEqual([expect.stringContaining('only through interfaces')]);
    expect(await problems('src/node/modules/staking/x.ts', "import type { Account } from '../auth/account.js';\nexport type X = Account;\n")).toEqual([]);
    expect(await problems('src/node/modules/staking/x.ts', "import { accString } from '../shared/address.js';\nimport { defineModule } from '../../platform/module.js';\nexport const x = [accString, defineModule];\n")).toEqual([]);
  });
});
