/**
 * ERC-20s compiled by solc at build time, against a node started by the test:
 *
 * - the standard ERC-20 (contracts/ERC20Token.sol) deployed and transferred with ethers v6 and
 *   with viem, receipts awaited, its Transfer events read by getLogs and by a log filter
 *   (eth_newFilter + eth_getFilterChanges, and viem's event filter);
 * - the coin ⇄ ERC-20 converter (netrc20, module aiozrc20): a coin registered by a governance
 *   proposal (v1 MsgExecLegacyContent carrying RegisterCoinProposal), coins → ERC-20 → coins
 *   with exact balances on both sides and the token supply back to 0, the EVM hook turning a
 *   Transfer to the module address into coins, and the refusals: more than the balance, an
 *   unknown pair, a zero amount, a disabled pair, a pair registered twice.
 */
import { jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Contract, ContractFactory, JsonRpcProvider, Wallet, getAddress, id as topicOf, type TransactionReceipt } from 'ethers';
import { createPublicClient, createWalletClient, defineChain, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ERC20Token, ModuleERC20 } from '../../src/contracts/artifacts.js';
import { cliOk as ok, runCli } from '../helpers/cli.js';
import { validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, nextBlock, startOnFreePorts, stopNode, waitForBlockTime } from '../helpers/node.js';

jest.setTimeout(240_000);

const JUNK_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const JUNK_ETH = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const JUNK_ADDR = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';
const CHAIN_ID = 9000;
const FEES = 200000n;
const FEE_FLAGS = ['--fees', `${FEES}attotoken`, '--yes', '-b', 'block', '-o', 'json'];
const TRANSFER = topicOf('Transfer(address,address,uint256)');
/** The converter's module address: sha256("aiozrc20")[:20]. */
const MODULE_ETH = getAddress('0xf7f8ee7243a1e81078dedc47e7ca8c5ff4c115af');
const COIN_SUPPLY = 1_000_000n;

describe('solc ERC-20s and the coin ⇄ ERC-20 converter', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let url: string;
  let n: string[];
  let kb: string[];
  let provider: JsonRpcProvider;
  let wallet: Wallet;
  let govAddress: string;
  let proposals = 0;

  async function balance(address: string, denom: string): Promise<bigint> {
    const out = JSON.parse(await ok(['q', 'bank', 'balances', address, '-o', 'json', ...n]));
    return BigInt(out.balances.find((c: { denom: string }) => c.denom === denom)?.amount ?? '0');
  }

  /** A v1 proposal carrying one legacy content, voted yes by the only validator; its final status. */
  async function propose(content: Record<string, unknown>): Promise<string> {
    const file = join(home, `proposal-${++proposals}.json`);
    writeFileSync(file, JSON.stringify({ messages: [{ '@type': '/cosmos.gov.v1.MsgExecLegacyContent', content, authority: govAddress }], metadata: '', deposit: '10000000attotoken', title: String(content.title), summary: String(content.description) }));
    return passVote(await ok(['tx', 'gov', 'submit-proposal', file, '--from', 'alice', ...FEE_FLAGS, ...kb]));
  }

  /** The same through `tx gov submit-legacy-proposal <kind> <file>` (a v1beta1 MsgSubmitProposal). */
  async function proposeLegacy(kind: string, json: Record<string, unknown>): Promise<string> {
    const file = join(home, `proposal-${++proposals}.json`);
    writeFileSync(file, JSON.stringify({ ...json, deposit: '10000000attotoken' }));
    return passVote(await ok(['tx', 'gov', 'submit-legacy-proposal', kind, file, '--from', 'alice', ...FEE_FLAGS, ...kb]));
  }

  async function passVote(submittedJson: string): Promise<string> {
    const submitted = JSON.parse(submittedJson) as { code: number; events: { type: string; attributes: { key: string; value: string }[] }[] };
    expect(submitted.code).toBe(0);
    const id = submitted.events.find((e) => e.type === 'submit_proposal')!.attributes.find((a) => a.key === 'proposal_id')!.value;
    expect(JSON.parse(await ok(['tx', 'gov', 'vote', String(id), 'yes', '--from', 'alice', ...FEE_FLAGS, ...kb])).code).toBe(0);
    for (;;) {
      const proposal = JSON.parse(await ok(['q', 'gov', 'proposal', String(id), '-o', 'json', ...n])).proposal;
      if (proposal.status !== 'PROPOSAL_STATUS_VOTING_PERIOD' && proposal.status !== 'PROPOSAL_STATUS_DEPOSIT_PERIOD') return proposal.status;
      // The tally runs in the first block whose time is past the voting end: wait for it over HTTP.
      if (proposal.voting_end_time) await waitForBlockTime(bg!.node, Date.parse(proposal.voting_end_time));
      await nextBlock(bg!.node);
    }
  }

  async function convert(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return runCli(['tx', 'aiozrc20', ...args, '--from', 'alice', ...FEE_FLAGS, ...kb]);
  }

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-netrc20-');
    const h = ['--home', home];
    fastBlocks(home);
    const file = join(home, 'config', 'genesis.json');
    const genesis = JSON.parse(readFileSync(file, 'utf8'));
    // alice also holds the whole supply of a Cosmos coin to convert (validate-genesis below checks the sums).
    const aliceBalance = genesis.app_state.bank.balances.find((b: { address: string }) => b.address === JUNK_ADDR);
    aliceBalance.coins.push({ denom: 'ucoin', amount: COIN_SUPPLY.toString() });
    genesis.app_state.bank.supply.push({ denom: 'ucoin', amount: COIN_SUPPLY.toString() });
    Object.assign(genesis.app_state.gov.params, { min_deposit: [{ denom: 'attotoken', amount: '10000000' }], max_deposit_period: '10s', voting_period: '10s' });
    writeFileSync(file, JSON.stringify(genesis, null, 2));
    await ok(['validate-genesis', ...h]);
    bg = await startOnFreePorts(home, 2);
    url = bg.jsonRpc!;
    n = ['--node', bg.node];
    kb = ['--keyring-backend', 'test', '--home', home, ...n];
    provider = new JsonRpcProvider(url, undefined, { staticNetwork: true, pollingInterval: 200, cacheTimeout: -1 });
    wallet = new Wallet(JUNK_KEY, provider);
    govAddress = JSON.parse(await ok(['q', 'auth', 'module-account', 'gov', '-o', 'json', ...n])).account.base_account.address;
  });

  afterAll(async () => {
    provider?.destroy();
    if (bg) await stopNode(bg);
  });

  test('ethers: the solc ERC-20 deployed and transferred; Transfer events by getLogs and by a log filter', async () => {
    const supply = 1_000_000n * 10n ** 18n;
    const factory = new ContractFactory(ERC20Token.abi, ERC20Token.bytecode, wallet);
    const deployed = await factory.deploy('Test Token', 'TST', 18, supply);
    const deployReceipt = (await deployed.deploymentTransaction()!.wait())! as TransactionReceipt;
    expect(deployReceipt.status).toBe(1);
    const address = await deployed.getAddress();
    const token = new Contract(address, ERC20Token.abi, wallet);
    expect([await token.name!(), await token.symbol!(), await token.decimals!(), await token.totalSupply!()]).toEqual(['Test Token', 'TST', 18n, supply]);
    expect(await token.balanceOf!(JUNK_ETH)).toBe(supply);

    const filterId: string = await provider.send('eth_newFilter', [{ address, topics: [TRANSFER] }]);
    const bob = Wallet.createRandom().address;
    const sent = await token.transfer!(bob, 1234n);
    const receipt = (await sent.wait())! as TransactionReceipt;
    expect(receipt.status).toBe(1);
    const parsed = receipt.logs.map((log) => token.interface.parseLog(log)!);
    expect(parsed.map((p) => [p.name, p.args[0], p.args[1], p.args[2]])).toEqual([['Transfer', JUNK_ETH, bob, 1234n]]);
    expect(await token.balanceOf!(bob)).toBe(1234n);

    // getLogs: the constructor's mint and the transfer, in order.
    const logs = await provider.getLogs({ address, topics: [TRANSFER], fromBlock: deployReceipt.blockNumber, toBlock: 'latest' });
    expect(logs.map((l) => l.transactionHash)).toEqual([deployReceipt.hash, receipt.hash]);
    // ethers' typed event query reads the same logs.
    const events = await token.queryFilter(token.filters.Transfer!(JUNK_ETH, bob), deployReceipt.blockNumber);
    expect(events.map((e) => e.transactionHash)).toEqual([receipt.hash]);
    // The filter installed before the transfer reports it (polled until the block is indexed).
    let changes: { transactionHash: string }[] = [];
    for (let i = 0; i < 100 && changes.length === 0; i++) {
      changes = await provider.send('eth_getFilterChanges', [filterId]);
      if (changes.length === 0) await nextBlock(bg!.node);
    }
    expect(changes.map((c) => c.transactionHash)).toEqual([receipt.hash]);
    expect(await provider.send('eth_uninstallFilter', [filterId])).toBe(true);
  });

  test('viem: the solc ERC-20 deployed, transferred, receipts awaited, events by getContractEvents and an event filter', async () => {
    const chain = defineChain({ id: CHAIN_ID, name: 'tokend', nativeCurrency: { name: 'token', symbol: 'TOKEN', decimals: 18 }, rpcUrls: { default: { http: [url] } } });
    const client = createPublicClient({ chain, transport: viemHttp(url), pollingInterval: 200 });
    const walletClient = createWalletClient({ chain, transport: viemHttp(url), account: privateKeyToAccount(JUNK_KEY) });
    const hash = await walletClient.deployContract({ abi: ERC20Token.abi, bytecode: ERC20Token.bytecode, args: ['Viem Token', 'VIEM', 6, 5_000_000n] });
    const deployed = await client.waitForTransactionReceipt({ hash, pollingInterval: 200 });
    expect(deployed.status).toBe('success');
    const address = deployed.contractAddress!;
    expect(await client.readContract({ address, abi: ERC20Token.abi, functionName: 'decimals' })).toBe(6);
    const filter = await client.createContractEventFilter({ address, abi: ERC20Token.abi, eventName: 'Transfer' });
    const to = Wallet.createRandom().address as `0x${string}`;
    const transferHash = await walletClient.writeContract({ address, abi: ERC20Token.abi, functionName: 'transfer', args: [to, 777n] });
    const receipt = await client.waitForTransactionReceipt({ hash: transferHash, pollingInterval: 200 });
    expect(receipt.status).toBe('success');
    expect(await client.readContract({ address, abi: ERC20Token.abi, functionName: 'balanceOf', args: [to] })).toBe(777n);
    const events = await client.getContractEvents({ address, abi: ERC20Token.abi, eventName: 'Transfer', fromBlock: deployed.blockNumber });
    expect(events.map((e) => [e.transactionHash, e.args])).toEqual([
      [hash, { from: '0x0000000000000000000000000000000000000000', to: JUNK_ETH, value: 5_000_000n }],
      [transferHash, { from: JUNK_ETH, to, value: 777n }],
    ]);
    let changes: { transactionHash: string | null }[] = [];
    for (let i = 0; i < 100 && changes.length === 0; i++) {
      changes = await client.getFilterChanges({ filter });
      if (changes.length === 0) await nextBlock(bg!.node);
    }
    expect(changes.map((c) => c.transactionHash)).toEqual([transferHash]);
  });

  test('netrc20: a coin registered by proposal, coins → ERC-20 → coins with exact balances, the EVM hook', async () => {
    expect(JSON.parse(await ok(['q', 'aiozrc20', 'params', '-o', 'json', ...n]))).toEqual({ params: { enabled: true, evm_hook_enabled: true } });
    expect(JSON.parse(await ok(['q', 'netrc20', 'converter-address', '-o', 'json', ...n]))).toEqual({ converter_address: MODULE_ETH });
    const status = await propose({
      '@type': '/aioz.aiozrc20.v1.RegisterCoinProposal',
      title: 'Register ucoin',
      description: 'An ERC-20 for ucoin',
      metadata: { description: 'A test coin', base: 'ucoin', display: 'coin', name: 'Coin', symbol: 'COIN', denom_units: [{ denom: 'ucoin', exponent: 0, aliases: [] }, { denom: 'coin', exponent: 6, aliases: [] }], uri: '', uri_hash: '' },
    });
    expect(status).toBe('PROPOSAL_STATUS_PASSED');
    const pairs = JSON.parse(await ok(['q', 'aiozrc20', 'token-pairs', '-o', 'json', ...n]));
    expect(pairs.token_pairs).toHaveLength(1);
    const pair = pairs.token_pairs[0];
    expect(pair).toEqual({ aiozrc20_address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/), denom: 'ucoin', enabled: true, contract_owner: 'OWNER_MODULE' });
    const contract: string = pair.aiozrc20_address;
    expect(JSON.parse(await ok(['q', 'aiozrc20', 'token-pair', contract, '-o', 'json', ...n]))).toEqual({ token_pair: pair });
    const rest = await fetch(`${bg!.api}/net/netrc20/v1/token_pairs/ucoin`);
    expect(await rest.json()).toEqual({ token_pair: pair });
    const token = new Contract(contract, ModuleERC20.abi, provider);
    expect([await token.name!(), await token.symbol!(), await token.decimals!(), await token.totalSupply!(), (await token.owner!()).toLowerCase()]).toEqual(['Coin', 'COIN', 6n, 0n, MODULE_ETH.toLowerCase()]);

    // coins → ERC-20
    const [coinsBefore, feesBefore] = await Promise.all([balance(JUNK_ADDR, 'ucoin'), balance(JUNK_ADDR, 'attotoken')]);
    expect(coinsBefore).toBe(COIN_SUPPLY);
    const toErc20 = await convert(['convert-coin', '400000ucoin', JUNK_ETH]);
    expect([toErc20.code, toErc20.stderr]).toEqual([0, '']);
    expect(JSON.parse(toErc20.stdout).code).toBe(0);
    expect(await token.balanceOf!(JUNK_ETH)).toBe(400_000n);
    expect(await token.totalSupply!()).toBe(400_000n);
    const moduleBech32 = (await ok(['debug', 'addr', MODULE_ETH.slice(2)])).match(/token1[0-9a-z]+/)![0];
    expect(await Promise.all([balance(JUNK_ADDR, 'ucoin'), balance(JUNK_ADDR, 'attotoken'), balance(moduleBech32, 'ucoin')])).toEqual([COIN_SUPPLY - 400_000n, feesBefore - FEES, 400_000n]);

    // ERC-20 → coins (the sender is --from's 0x address)
    const toCoins = await convert(['convert-aiozrc20', contract, '400000', JUNK_ADDR]);
    expect([toCoins.code, toCoins.stderr]).toEqual([0, '']);
    expect(await token.balanceOf!(JUNK_ETH)).toBe(0n);
    expect(await token.totalSupply!()).toBe(0n);
    expect(await Promise.all([balance(JUNK_ADDR, 'ucoin'), balance(moduleBech32, 'ucoin'), balance(JUNK_ADDR, 'attotoken')])).toEqual([COIN_SUPPLY, 0n, feesBefore - 2n * FEES]);

    // The EVM hook: an ERC-20 Transfer to the module address converts back to coins.
    // (the receiver typed as bech32: the CLI sends its 0x form)
    expect((await convert(['convert-coin', '1000ucoin', JUNK_ADDR])).code).toBe(0);
    const writer = new Contract(contract, ModuleERC20.abi, wallet);
    const sent = await writer.transfer!(MODULE_ETH, 600n);
    expect(((await sent.wait())! as TransactionReceipt).status).toBe(1);
    expect(await token.balanceOf!(JUNK_ETH)).toBe(400n);
    expect(await token.balanceOf!(MODULE_ETH)).toBe(0n);
    expect(await token.totalSupply!()).toBe(400n);
    expect(await balance(JUNK_ADDR, 'ucoin')).toBe(COIN_SUPPLY - 400n);
    expect((await convert(['convert-aiozrc20', contract, '400', JUNK_ADDR])).code).toBe(0);
    expect(await token.totalSupply!()).toBe(0n);
    expect(await balance(JUNK_ADDR, 'ucoin')).toBe(COIN_SUPPLY);
  });

  test('netrc20 bad input: the module’s error in one line, nothing converted', async () => {
    const contract: string = JSON.parse(await ok(['q', 'aiozrc20', 'token-pair', 'ucoin', '-o', 'json', ...n])).token_pair.aiozrc20_address;
    const token = new Contract(contract, ModuleERC20.abi, provider);
    const unchanged = async () => {
      expect(await balance(JUNK_ADDR, 'ucoin')).toBe(COIN_SUPPLY);
      expect(await token.totalSupply!()).toBe(0n);
    };
    const refused = async (args: string[], pattern: RegExp, exitCode = 1) => {
      const result = await convert(args);
      expect({ args, code: result.code, lines: result.stderr.trim().split('\n').length }).toEqual({ args, code: exitCode, lines: 1 });
      expect(result.stderr).toMatch(pattern);
      await unchanged();
    };
    await refused(['convert-coin', `${COIN_SUPPLY + 1n}ucoin`, JUNK_ETH], /insufficient funds/);
    await refused(['convert-aiozrc20', contract, '5', JUNK_ADDR], /failed with code 5 \(sdk\).*token balance 0 of 0x[0-9a-fA-F]{40} is smaller than 5: insufficient funds/);
    await refused(['convert-coin', '5nocoin', JUNK_ETH], /failed with code 4 \(aiozrc20\).*token 'nocoin' not registered: token pair not found/);
    await refused(['convert-aiozrc20', '0x1111111111111111111111111111111111111111', '5', JUNK_ADDR], /token pair not found/);
    await refused(['convert-aiozrc20', contract, '0', JUNK_ADDR], /cannot mint a non-positive amount: invalid coins/);
    await refused(['convert-coin', '5ucoin', 'not-an-address'], /"error":"invalid <receiver>: invalid bech32 address /, 2);
    const zero = await convert(['convert-coin', '0ucoin', JUNK_ETH]);
    expect(zero.code).not.toBe(0);
    expect(zero.stderr.trim().split('\n')).toHaveLength(1);
    await unchanged();
    const unknownQuery = await runCli(['q', 'aiozrc20', 'token-pair', 'nocoin', ...n]);
    expect([unknownQuery.code, unknownQuery.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(unknownQuery.stderr).toMatch(/token pair with token 'nocoin'/);

    // Registering ucoin again: gov runs the content's handler when the proposal is submitted
    // (as the SDK does for MsgExecLegacyContent), so the submission is refused with the module's error.
    const file = join(home, 'proposal-twice.json');
    const twice = { '@type': '/aioz.aiozrc20.v1.RegisterCoinProposal', title: 'Register ucoin again', description: 'Twice', metadata: { description: '', base: 'ucoin', display: 'ucoin', name: 'Coin', symbol: 'COIN', denom_units: [{ denom: 'ucoin', exponent: 0, aliases: [] }], uri: '', uri_hash: '' } };
    writeFileSync(file, JSON.stringify({ messages: [{ '@type': '/cosmos.gov.v1.MsgExecLegacyContent', content: twice, authority: govAddress }], metadata: '', deposit: '10000000attotoken', title: 'Twice', summary: 'Twice' }));
    const proposalsBefore = JSON.parse(await ok(['q', 'gov', 'proposals', '-o', 'json', ...n])).proposals.length;
    const duplicate = await runCli(['tx', 'gov', 'submit-proposal', file, '--from', 'alice', ...FEE_FLAGS, ...kb]);
    expect([duplicate.code, duplicate.stderr.trim().split('\n').length]).toEqual([1, 1]);
    expect(duplicate.stderr).toMatch(/coin denomination already registered: ucoin: token pair already exists/);
    expect(JSON.parse(await ok(['q', 'gov', 'proposals', '-o', 'json', ...n])).proposals).toHaveLength(proposalsBefore);
    expect(JSON.parse(await ok(['q', 'aiozrc20', 'token-pairs', '-o', 'json', ...n])).token_pairs).toHaveLength(1);

    // A disabled pair (toggled by proposal) refuses conversions.
    expect(await proposeLegacy('toggle-token-conversion', { title: 'Pause ucoin', description: 'Off', token: 'ucoin' })).toBe('PROPOSAL_STATUS_PASSED');
    expect(JSON.parse(await ok(['q', 'aiozrc20', 'token-pair', 'ucoin', '-o', 'json', ...n])).token_pair.enabled).toBe(false);
    await refused(['convert-coin', '5ucoin', JUNK_ETH], /failed with code 13 \(aiozrc20\).*erc20 token pair is disabled/);
  });

  test('netrc20: an external ERC-20 registered by proposal: tokens escrowed at the module address for coins, and back', async () => {
    const factory = new ContractFactory(ERC20Token.abi, ERC20Token.bytecode, wallet);
    const deployed = await factory.deploy('Outside Token', 'OUT', 18, 10_000n);
    await deployed.deploymentTransaction()!.wait();
    const contract = await deployed.getAddress();
    const token = new Contract(contract, ERC20Token.abi, wallet);
    expect(await proposeLegacy('register-aiozrc20', { title: 'Register OUT', description: 'An external token', aiozrc20_address: contract })).toBe('PROPOSAL_STATUS_PASSED');
    const denom = `aiozrc20/${contract}`;
    expect(JSON.parse(await ok(['q', 'aiozrc20', 'token-pair', contract, '-o', 'json', ...n]))).toEqual({ token_pair: { aiozrc20_address: contract, denom, enabled: true, contract_owner: 'OWNER_EXTERNAL' } });
    const metadata = JSON.parse(await ok(['q', 'bank', 'denom-metadata', '--denom', denom, '-o', 'json', ...n])).metadata;
    expect(metadata).toMatchObject({ base: denom, name: 'Outside Token', symbol: 'OUT', description: `Cosmos coin token representation of ${contract}` });

    // ERC-20 → coins: the tokens go to the module address, coins are minted.
    expect((await convert(['convert-aiozrc20', contract, '2500', JUNK_ADDR])).code).toBe(0);
    expect(await token.balanceOf!(JUNK_ETH)).toBe(7_500n);
    expect(await token.balanceOf!(MODULE_ETH)).toBe(2_500n);
    expect(await balance(JUNK_ADDR, denom)).toBe(2_500n);
    // coins → ERC-20: the coins are burnt, the escrowed tokens come back.
    expect((await convert(['convert-coin', `1000${denom}`, JUNK_ETH])).code).toBe(0);
    expect(await token.balanceOf!(JUNK_ETH)).toBe(8_500n);
    expect(await token.balanceOf!(MODULE_ETH)).toBe(1_500n);
    expect(await balance(JUNK_ADDR, denom)).toBe(1_500n);
    // The hook: a plain ERC-20 transfer to the module address mints coins for the sender.
    const sent = await token.transfer!(MODULE_ETH, 500n);
    expect(((await sent.wait())! as TransactionReceipt).status).toBe(1);
    expect(await balance(JUNK_ADDR, denom)).toBe(2_000n);
    expect(await token.balanceOf!(MODULE_ETH)).toBe(2_000n);
    // Back to all tokens: supply on the chain side returns to 0.
    expect((await convert(['convert-coin', `2000${denom}`, JUNK_ETH])).code).toBe(0);
    expect([await token.balanceOf!(JUNK_ETH), await token.balanceOf!(MODULE_ETH), await balance(JUNK_ADDR, denom)]).toEqual([10_000n, 0n, 0n]);
    const supply = JSON.parse(await ok(['q', 'bank', 'total', '-o', 'json', ...n]));
    expect(supply.supply.find((c: { denom: string }) => c.denom === denom)).toBeUndefined();
  });
});
