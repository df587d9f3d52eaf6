/**
 * Registration is complete: everything a module declares reaches every surface derived from it.
 * Every Msg of every declared Msg service has a signer option, a type in the Any registry, an
 * amino JSON name and a CLI command; every Query method of every declared Query service is
 * answered over ABCI, has a gRPC method and a REST route in the node's one query table, and a
 * CLI command.
 */
import { getOption, hasOption } from '@bufbuild/protobuf';
import { signer } from '../../../src/gen/cosmos/msg/v1/msg_pb.js';
import { name as aminoName } from '../../../src/gen/amino/amino_pb.js';
import { App } from '../../../src/node/app/app.js';
import { APP_MODULES, APP_STORE_NAMES, appRegistry, createModuleManager } from '../../../src/node/app/modules.js';
import { moduleCommandIds } from '../../../src/cli/derive/plan.js';
import { msgServicesOf } from '../../../src/node/platform/manager.js';
import { httpRoutes } from '../../../src/node/codec/index.js';
import { createQueryRouter } from '../../../src/node/services/index.js';
import { memoryDatabase } from '../../../src/node/store/db/database.js';
import { openCommitMultiStore } from '../../../src/node/store/index.js';

const manager = createModuleManager();
/** Module name → its CLI's command id per method. */
const commands = new Map(APP_MODULES.map((module) => [module.name, module.cli === undefined ? undefined : moduleCommandIds(module.cli)]));
const msgMethods = APP_MODULES.flatMap((module) => msgServicesOf(module).flatMap((service) => service.methods.map((method) => ({ module: module.name, method }))));
const queryMethods = APP_MODULES.flatMap((module) => (module.queryServices ?? []).flatMap((service) => service.methods.map((method) => ({ module: module.name, method }))));

describe('every declared Msg', () => {
  test.each(msgMethods.map(({ module, method }) => [`${module} ${method.input.typeName}`, method] as const))('%s has a signer, a registered type, an amino name and a CLI command', (_name, method) => {
    const module = msgMethods.find((entry) => entry.method === method)!.module;
    expect(commands.get(module)?.tx[method.name]).toMatch(/^tx:/);
    expect(hasOption(method.input, signer) && getOption(method.input, signer).length > 0).toBe(true);
    expect(appRegistry.getMessage(method.input.typeName)).toBe(method.input);
    expect(appRegistry.getMessage(method.output.typeName)).toBe(method.output);
    const amino = hasOption(method.input, aminoName) ? getOption(method.input, aminoName) : manager.aminoNames().get(method.input.typeName);
    expect(amino).toMatch(/^[\w-]+\/[\w/]+$/);
  });
});

describe('every declared Query method', () => {
  let app: App;
  let abciPaths: Set<string>;
  let tablePaths: Set<string>;
  let restRpcs: Set<string>;
  /** tokend's own Query methods that upstream has no REST route for, so none is invented. */
  const NO_HTTP_BINDING = new Set(['/ethermint.evm.v1.Query/TraceCall']);

  beforeAll(async () => {
    const store = await openCommitMultiStore(memoryDatabase(), { stores: APP_STORE_NAMES, syncCommits: false });
    app = new App(store, { sigVerifyWorkers: 0 });
    abciPaths = new Set(app.queryRouter.routes().map((route) => route.path));
    tablePaths = new Set([...createQueryRouter({ app }).entries()].map((entry) => entry.path));
    restRpcs = new Set(httpRoutes().map((route) => `/${route.service}/${route.rpc}`));
  });

  afterAll(async () => {
    await app.close();
  });

  test.each(queryMethods.map(({ module, method }) => [`${module} ${method.parent.typeName}/${method.name}`, method] as const))('%s is an ABCI path, a gRPC method, a REST route and a CLI command', (_name, method) => {
    const module = queryMethods.find((entry) => entry.method === method)!.module;
    expect(commands.get(module)?.query[method.name]).toMatch(/^query:/);
    const path = `/${method.parent.typeName}/${method.name}`;
    expect(abciPaths.has(path)).toBe(true);
    expect(tablePaths.has(path)).toBe(true);
    expect(restRpcs.has(path)).toBe(!NO_HTTP_BINDING.has(path));
  });
});
