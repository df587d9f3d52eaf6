/**
 * The command-line descriptors of the app's modules, in the order their topics are listed. The
 * build derives one command per Query and Msg method from them (scripts/gen-cli-commands.js);
 * see node/platform/cli.ts.
 */
import { authCli } from '../modules/auth/cli.js';
import { bankCli } from '../modules/bank/cli.js';
import { stakingCli } from '../modules/staking/cli.js';
import type { ModuleCli } from '../platform/cli.js';

export const MODULE_CLI: readonly ModuleCli[] = [authCli, bankCli, stakingCli];
