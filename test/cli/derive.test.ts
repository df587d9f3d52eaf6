/**
 * The CLI derived from the module descriptors: every Query and Msg method has a command (and the
 * built binary has it), the Cosmos SDK's names and argument orders for staking, the defaults
 * (path variables positional for queries, signer from --from for Msgs), help from the proto
 * comments, descriptor mistakes caught at build time, and argument parsing errors.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Query as StakingQuery } from '../../src/gen/cosmos/staking/v1beta1/query_pb.js';
import { Msg as BankMsg } from '../../src/gen/cosmos/bank/v1beta1/tx_pb.js';
import { Msg as StakingMsg } from '../../src/gen/cosmos/staking/v1beta1/tx_pb.js';
import { MODULE_CLI } from '../../src/node/app/modules.js';
import { stakingCli } from '../../src/node/modules/staking/cli.js';
import { bankCli } from '../../src/node/modules/bank/cli.js';
import { cliServices, type ModuleCli } from '../../src/node/platform/cli.js';
import { CliDescriptorError, firstSentence, kebabCase, moduleCommandIds, moduleTopics, planCommand, planModule } from '../../src/cli/derive/plan.js';
import { derivedCommand } from '../../src/cli/derive/command.js';
import { fieldValue } from '../../src/cli/derive/values.js';
import { TokendError } from '../../src/util/errors.js';
import { REPO_ROOT } from '../helpers/cli.js';

const ADDR = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';
const HEX = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const VALOPER = 'tokenvaloper17w0adeg64ky0daxwd2ugyuneellmjgnx9escau';

async function rejection(promise: Promise<unknown>): Promise<TokendError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(TokendError);
    return err as TokendError;
  }
  throw new Error('expected a rejection');
}

describe('every Query and Msg method has a CLI command', () => {
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, { aliases: string[]; hiddenAliases?: string[] }> };
  const builtIds = new Set(Object.entries(manifest.commands).flatMap(([id, command]) => [id, ...command.aliases, ...(command.hiddenAliases ?? [])]));

  test.each(MODULE_CLI.map((cli) => [cli.module, cli] as const))('%s: each method maps to a command of the built binary', (_name, cli) => {
    const ids = moduleCommandIds(cli);
    expect(ids.skipped).toEqual({});
    for (const [kind, service] of [...cliServices(cli, 'query').map((entry) => ['query', entry.service] as const), ...cliServices(cli, 'tx').map((entry) => ['tx', entry.service] as const)]) {
      for (const method of service.methods) {
        const id = ids[kind][method.name];
        expect({ method: method.name, id }).toEqual({ method: method.name, id: expect.any(String) });
        // Built by `npm run build` (generated command file or hand-written one).
        expect({ id, built: builtIds.has(id!) }).toEqual({ id, built: true });
      }
    }
  });

  test('the module topics come from the descriptors', () => {
    const topics = Object.assign({}, ...MODULE_CLI.map(moduleTopics));
    expect(Object.keys(topics)).toEqual(['query:auth', 'tx:auth', 'query:bank', 'tx:bank', 'query:staking', 'tx:staking', 'query:distribution', 'tx:distribution', 'query:slashing', 'tx:slashing', 'query:evidence', 'tx:evidence', 'query:mint', 'query:minting', 'tx:mint', 'tx:minting', 'query:bonus', 'tx:bonus', 'query:feemarket', 'tx:feemarket', 'query:evm', 'tx:evm', 'query:aiozrc20', 'query:netrc20', 'tx:aiozrc20', 'tx:netrc20', 'query:authz', 'tx:authz', 'query:feegrant', 'tx:feegrant', 'query:group', 'tx:group', 'query:gov', 'tx:gov', 'query:params', 'query:upgrade', 'tx:upgrade', 'query:ibc', 'query:ibc:client', 'query:ibc:connection', 'query:ibc:channel', 'tx:ibc', 'tx:ibc:client', 'tx:ibc:connection', 'tx:ibc:channel', 'query:ibc-fee', 'tx:ibc-fee', 'query:ibc-transfer', 'tx:ibc-transfer', 'query:interchain-accounts', 'query:interchain-accounts:controller', 'query:interchain-accounts:host', 'tx:interchain-accounts', 'tx:interchain-accounts:controller', 'query:icamauth', 'tx:icamauth', 'query:bech32ibc']);
    const packageJson = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'));
    for (const topic of Object.keys(topics)) expect(packageJson.oclif.topics[topic]).toBeUndefined();
    expect(JSON.parse(readFileSync(join(REPO_ROOT, 'dist', 'cli-topics.json'), 'utf8'))).toEqual(topics);
  });
});

describe('staking: the Cosmos SDK command names', () => {
  test('queries and txs', () => {
    const ids = moduleCommandIds(stakingCli);
    expect(ids.query).toEqual({
      Validators: 'query:staking:validators',
      Validator: 'query:staking:validator',
      ValidatorDelegations: 'query:staking:delegations-to',
      ValidatorUnbondingDelegations: 'query:staking:unbonding-delegations-from',
      Delegation: 'query:staking:delegation',
      UnbondingDelegation: 'query:staking:unbonding-delegation',
      DelegatorDelegations: 'query:staking:delegations',
      DelegatorUnbondingDelegations: 'query:staking:unbonding-delegations',
      Redelegations: 'query:staking:redelegations',
      DelegatorValidators: 'query:staking:delegator-validators',
      DelegatorValidator: 'query:staking:delegator-validator',
      HistoricalInfo: 'query:staking:historical-info',
      Pool: 'query:staking:pool',
      Params: 'query:staking:params',
    });
    expect(ids.tx).toEqual({
      CreateValidator: 'tx:staking:create-validator',
      EditValidator: 'tx:staking:edit-validator',
      Delegate: 'tx:staking:delegate',
      BeginRedelegate: 'tx:staking:redelegate',
      Undelegate: 'tx:staking:unbond',
      CancelUnbondingDelegation: 'tx:staking:cancel-unbond',
      UpdateParams: 'tx:staking:update-params',
    });
  });

  test('a module alias (another topic name) gives every command a second id, and a topic', () => {
    const cli: ModuleCli = { ...stakingCli, module: 'stake', aliases: ['staking2'] };
    expect(planCommand(cli, 'query', 'DelegatorDelegations').aliases).toEqual([
      'query:stake:delegator-delegations',
      'query:staking2:delegations',
      'query:staking2:delegator-delegations',
    ]);
    expect(Object.keys(moduleTopics(cli))).toEqual(['query:stake', 'query:staking2', 'tx:stake', 'tx:staking2']);
    expect(moduleTopics(cli)['tx:staking2']!.description).toBe('Staking transaction subcommands (same as tx stake)');
  });

  test('renamed commands keep the kebab-case method name, and explicit aliases', () => {
    expect(planCommand(stakingCli, 'query', 'DelegatorDelegations').aliases).toEqual(['query:staking:delegator-delegations']);
    expect(planCommand(stakingCli, 'query', 'Redelegations').aliases).toEqual(['query:staking:redelegation']);
    expect(planCommand(stakingCli, 'tx', 'Undelegate').aliases).toEqual(['tx:staking:undelegate']);
    expect(planCommand(bankCli, 'query', 'TotalSupply').aliases).toEqual(['query:bank:total']);
  });

  test('positional arguments: path variables (queries), SDK order where overridden, every scalar and coin field but the signer (Msgs)', () => {
    const args = (kind: 'query' | 'tx', method: string): string[] => planCommand(stakingCli, kind, method).args.map((arg) => `${arg.field}${arg.optional ? '?' : ''}`);
    expect(args('query', 'Validators')).toEqual([]);
    expect(args('query', 'Validator')).toEqual(['validator_addr']);
    expect(args('query', 'HistoricalInfo')).toEqual(['height']);
    expect(args('query', 'DelegatorValidator')).toEqual(['delegator_addr', 'validator_addr']);
    // The REST path has the validator first; the SDK command the delegator.
    expect(args('query', 'Delegation')).toEqual(['delegator_addr', 'validator_addr']);
    expect(args('query', 'Redelegations')).toEqual(['delegator_addr', 'src_validator_addr?', 'dst_validator_addr?']);
    expect(args('tx', 'Delegate')).toEqual(['validator_address', 'amount']);
    expect(args('tx', 'BeginRedelegate')).toEqual(['validator_src_address', 'validator_dst_address', 'amount']);
    expect(args('tx', 'Undelegate')).toEqual(['validator_address', 'amount']);
    expect(args('tx', 'CancelUnbondingDelegation')).toEqual(['validator_address', 'amount', 'creation_height']);
    expect(args('tx', 'EditValidator')).toEqual([]);
  });

  test('flags: other fields (kebab-case), pagination, JSON for messages; the signer comes from the key', () => {
    const validators = planCommand(stakingCli, 'query', 'Validators');
    expect(validators.flags.map((flag) => [flag.name, flag.kind])).toEqual([['status', 'string']]);
    expect(validators.paginated).toBe(true);
    const edit = planCommand(stakingCli, 'tx', 'EditValidator');
    expect(edit.signer).toEqual({ field: 'validator_address', address: 'validator' });
    expect(edit.flags.map((flag) => [flag.name, flag.kind])).toEqual([
      ['description', 'json'],
      ['commission-rate', 'string'],
      ['min-self-delegation', 'string'],
    ]);
    const delegate = planCommand(stakingCli, 'tx', 'Delegate');
    expect(delegate.signer).toEqual({ field: 'delegator_address', address: 'account' });
    expect(delegate.args.map((arg) => arg.kind)).toEqual(['address', 'coin']);
    // Deprecated fields are left out (MsgCreateValidator.delegator_address).
    expect([...planCommand(stakingCli, 'tx', 'CreateValidator').fields.keys()]).not.toContain('delegator_address');
  });

  test('oclif classes: arguments, flags, hidden aliases', () => {
    const Validators = derivedCommand(stakingCli, 'query', 'Validators');
    expect(Object.keys(Validators.flags)).toEqual(expect.arrayContaining(['node', 'height', 'page-key', 'limit', 'count-total', 'status']));
    const Redelegate = derivedCommand(stakingCli, 'tx', 'BeginRedelegate');
    expect(Object.keys(Redelegate.args)).toEqual(['validator_src_address', 'validator_dst_address', 'amount']);
    expect(Object.keys(Redelegate.flags)).toEqual(expect.arrayContaining(['from', 'fees', 'generate-only']));
    expect(Redelegate.hiddenAliases).toEqual(['tx:staking:begin-redelegate']);
    const CreateValidator = derivedCommand(stakingCli, 'tx', 'CreateValidator');
    expect(Object.keys(CreateValidator.args)).toEqual(['amount']);
    expect(Object.keys(CreateValidator.flags)).toEqual(expect.arrayContaining(['pubkey', 'moniker', 'commission-rate', 'min-self-delegation']));
  });
});

describe('help text comes from the proto comments', () => {
  test.each(MODULE_CLI.map((cli) => [cli.module, cli] as const))('%s: every method is commented, and its summary is the first sentence', (_name, cli) => {
    for (const entry of planModule(cli)) {
      const comment = cli.comments[`${entry.method.parent.typeName}.${entry.method.name}`];
      expect({ method: entry.method.name, comment }).toEqual({ method: entry.method.name, comment: expect.any(String) });
      if (entry.source === 'derived') expect(entry.plan.summary).toBe(firstSentence(comment!));
    }
    const delegate = planCommand(stakingCli, 'tx', 'Delegate');
    expect(delegate.summary).toBe('Delegates tokens to a validator');
    expect(delegate.args[1]!.description).toBe('Amount to delegate, in the bond denom, e.g. 1000attotoken');
    expect(delegate.args[0]!.description).toBe('Validator operator address (bech32 tokenvaloper1… or 0x hex)');
  });

  test('first sentence, kebab case', () => {
    expect(firstSentence('Returns one module account by module name, e.g. fee_collector.')).toBe('Returns one module account by module name, e.g. fee_collector');
    expect(firstSentence('Returns one account.\nFails with NotFound when it has none.')).toBe('Returns one account');
    expect(kebabCase('DelegatorDelegations')).toBe('delegator-delegations');
    expect(kebabCase('AccountAddressByID')).toBe('account-address-by-id');
    expect(kebabCase('Bech32Prefix')).toBe('bech32-prefix');
  });
});

describe('descriptor mistakes fail the build with one clear message', () => {
  const base: ModuleCli = { module: 'staking', comments: {}, query: { service: StakingQuery } };

  test('an override naming no method', () => {
    expect(() => planModule({ ...base, query: { service: StakingQuery, overrides: { Validatorz: { use: 'v' } } } })).toThrow(
      new CliDescriptorError('staking CLI: cosmos.staking.v1beta1.Query has no method Validatorz'),
    );
  });

  test('an unknown positional field, a required one after an optional one', () => {
    expect(() => planModule({ ...base, query: { service: StakingQuery, overrides: { Validator: { positional: ['validator'] } } } })).toThrow(/positional field "validator" is not a settable field/);
    expect(() =>
      planModule({ ...base, query: { service: StakingQuery, overrides: { Delegation: { positional: [{ field: 'delegator_addr', optional: true }, 'validator_addr'] } } } }),
    ).toThrow(/required argument "validator_addr" follows an optional one/);
  });

  test('two commands with one name', () => {
    expect(() => planModule({ ...base, query: { service: StakingQuery, overrides: { Pool: { use: 'params' } } } })).toThrow(/"query staking params" would be both Pool and Params/);
  });

  test('a Msg whose signer is not an address field needs a hand-written command', () => {
    expect(() => planModule({ module: 'bank', comments: {}, tx: { service: BankMsg, overrides: { Send: { handWritten: 'tx:send' } } } })).toThrow(/tx bank multi-send .*signer is not a single address field/);
  });

  test('a friendly form that sets a field the message does not have', () => {
    const cli: ModuleCli = { module: 'staking', comments: {}, tx: { service: StakingMsg, overrides: { Delegate: { friendly: { toFields: () => ({ validator: 'x', amount: '1stake' }) } } } } };
    expect(() => planModule(cli)).toThrow(/tx staking delegate .*the friendly form sets validator, not settable fields of cosmos\.staking\.v1beta1\.MsgDelegate/);
  });

  test('a field flag that would shadow a common flag', () => {
    const cli: ModuleCli = { ...base, query: { service: StakingQuery, overrides: { HistoricalInfo: { positional: [] } } } };
    expect(() => derivedCommand(cli, 'query', 'HistoricalInfo')).toThrow(/flag --height would shadow a common flag/);
  });
});

describe('what users type becomes the request', () => {
  const delegate = planCommand(stakingCli, 'tx', 'Delegate');
  const [validator, amount] = delegate.args;
  const historical = planCommand(stakingCli, 'query', 'HistoricalInfo').args[0]!;
  const status = planCommand(stakingCli, 'query', 'Validators').flags[0]!;

  test('addresses: hex takes the field prefix; bech32 is checked and kept', async () => {
    expect(await fieldValue(validator!, HEX, '<validator_address>')).toBe(VALOPER);
    expect(await fieldValue(validator!, VALOPER, '<validator_address>')).toBe(VALOPER);
    expect(await fieldValue(planCommand(stakingCli, 'query', 'DelegatorDelegations').args[0]!, HEX, '<delegator_addr>')).toBe(ADDR);
    const bad = await rejection(fieldValue(validator!, 'tokenvaloper1xyz', '<validator_address>'));
    expect(bad.line).toMatch(/^invalid <validator_address>: /);
    expect(bad.exitCode).toBe(2);
  });

  test('coins use the coin grammar; a Coin field takes exactly one', async () => {
    expect(await fieldValue(amount!, '1000attotoken', '<amount>')).toEqual({ denom: 'attotoken', amount: '1000' });
    expect((await rejection(fieldValue(amount!, '1000', '<amount>'))).line).toMatch(/^invalid <amount>: invalid coins "1000": "1000" is not <integer><denom>/);
    expect((await rejection(fieldValue(amount!, '1attotoken,2stake', '<amount>'))).line).toBe('invalid <amount> "1attotoken,2stake": expected one coin. e.g. 1000attotoken');
  });

  test('integers: 64-bit as strings, range checked', async () => {
    expect(await fieldValue(historical, '42', '<height>')).toBe('42');
    expect((await rejection(fieldValue(historical, 'forty', '<height>'))).line).toBe('invalid <height> "forty": expected an integer');
    expect((await rejection(fieldValue(historical, '9223372036854775808', '<height>'))).line).toMatch(/out of range for a int64/);
  });

  test('JSON for message fields, lists of scalars from several values or commas', async () => {
    const description = planCommand(stakingCli, 'tx', 'EditValidator').flags[0]!;
    expect(await fieldValue(description, '{"moniker":"v"}', '--description')).toEqual({ moniker: 'v' });
    expect((await rejection(fieldValue(description, '{moniker', '--description'))).line).toMatch(/^invalid --description "\{moniker": not JSON/);
    const denoms = planCommand(bankCli, 'query', 'SendEnabled').args[0]!;
    expect(await fieldValue(denoms, ['a1a', 'b2b,c3c'], '<denoms>')).toEqual(['a1a', 'b2b', 'c3c']);
    expect(await fieldValue(status, 'BOND_STATUS_BONDED', '--status')).toBe('BOND_STATUS_BONDED');
  });
});
