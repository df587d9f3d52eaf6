/**
 * The genutil module: delivers the genesis transactions at InitChain (through the app's normal
 * finalize path, so signatures, account number 0, sequences and funds are checked) and returns
 * the validator set they create.
 */
import type { JsonObject, JsonValue } from '@bufbuild/protobuf';
import type { ValidatorUpdate } from '../../abci/types.js';
import type { Context } from '../shared/context.js';
import type { AppModule, MsgRoute, QueryServiceImpl } from '../shared/module.js';
import { MODULE_NAME, defaultGenutilGenesis, genTxsOf, parseGenTx, txRawBytes, validateGenutilGenesis } from './genesis.js';

/** Runs one gentx in the genesis context; resolves with its ABCI code and log. */
export type DeliverGenTx = (ctx: Context, txBytes: Uint8Array) => Promise<{ code: number; log: string }>;

export interface GenutilStakingKeeper {
  applyAndReturnValidatorSetUpdates(ctx: Context): Promise<ValidatorUpdate[]>;
}

export class GenutilModule implements AppModule {
  readonly name = MODULE_NAME;
  readonly storeKeys: readonly string[] = [];
  readonly msgRoutes: readonly MsgRoute[] = [];
  readonly queryServices: readonly QueryServiceImpl[] = [];

  constructor(
    private readonly stakingKeeper: GenutilStakingKeeper,
    private readonly deliverGenTx: DeliverGenTx,
  ) {}

  defaultGenesis(): JsonObject {
    return defaultGenutilGenesis();
  }

  validateGenesis(genesis: JsonValue | undefined): string[] {
    return validateGenutilGenesis(genesis);
  }

  async initGenesis(ctx: Context, genesis: JsonValue | undefined): Promise<ValidatorUpdate[]> {
    const txs = genTxsOf(genesis);
    if (txs.length === 0) return [];
    for (const json of txs) {
      const bytes = txRawBytes(parseGenTx(json));
      const result = await this.deliverGenTx(ctx, bytes);
      if (result.code !== 0) throw new Error(`failed to execute DeliverTx for '${JSON.stringify(json)}': ${result.log}`);
    }
    return this.stakingKeeper.applyAndReturnValidatorSetUpdates(ctx);
  }

  async exportGenesis(): Promise<JsonObject> {
    return defaultGenutilGenesis();
  }
}
