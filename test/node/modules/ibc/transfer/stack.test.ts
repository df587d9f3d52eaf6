/**
 * The app's transfer stack is ibc-go's: core routes port transfer to the ICS-29 fee middleware,
 * which wraps the transfer application and sits between it and the channel keeper when sending.
 */
import { describe, expect, test } from '@jest/globals';
import { createModuleManager } from '../../../../../src/node/app/modules.js';
import { FeeMiddleware } from '../../../../../src/node/modules/ibc/apps/fee/middleware.js';
import type { TransferKeeper } from '../../../../../src/node/modules/ibc/apps/transfer/keeper.js';
import type { IbcKeeper } from '../../../../../src/node/modules/ibc/module.js';

describe('the transfer stack', () => {
  test('port transfer is routed to the fee middleware, and transfer sends through it', () => {
    const manager = createModuleManager();
    const route = manager.keeper<IbcKeeper>('ibc').router.getRoute('transfer');
    expect(route).toBeInstanceOf(FeeMiddleware);
    const transfer = manager.keeper<{ keeper: TransferKeeper }>('transfer').keeper;
    expect((transfer as unknown as { ibc: { ics4Wrapper: unknown } }).ibc.ics4Wrapper).toBe(route);
  });
});
