/**
 * Standard clients no one here wrote, against a node started by the test: CosmJS (StargateClient,
 * SigningStargateClient with an eth_secp256k1 wallet) over the consensus RPC, @grpc/grpc-js with
 * upstream-shaped proto files over gRPC, and plain HTTP against the REST gateway.
 */
import { jest } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { join } from 'node:path';
import { REPO_ROOT, runCli, tempHome, cliOk as ok, runNodeScript } from '../helpers/cli.js';
import { JUNK, validatorHome } from '../helpers/genesisTemplate.js';
import { type BackgroundNode, fastBlocks, startOnFreePorts, stopNode } from '../helpers/node.js';

jest.setTimeout(300_000);

const JUNK_ADDR = 'token17w0adeg64ky0daxwd2ugyuneellmjgnxp6ktw2';



describe('standard clients', () => {
  let bg: BackgroundNode | undefined;
  let home: string;
  let bob: string;

  beforeAll(async () => {
    // alice (JUNK) funded and bonded by a collected gentx: the shared template (test/helpers/genesisTemplate.ts).
    home = await validatorHome('tokend-clients-');
    const h = ['--home', home];
    fastBlocks(home);
    // A minimum gas price, so CheckTx enforces fees (0.001 × 200000 gas = 200attotoken).
    const appToml = join(home, 'config', 'app.toml');
    writeFileSync(appToml, readFileSync(appToml, 'utf8').replace(/^minimum-gas-prices = .*$/m, 'minimum-gas-prices = "0.001attotoken"'));
    bob = JSON.parse(await ok(['keys', 'add', 'bob', '--keyring-backend', 'test', '-o', 'json', ...h])).address;
    bg = await startOnFreePorts(home, 2);
  });

  afterAll(async () => {
    if (bg) await stopNode(bg);
  });

  test('CosmJS reads chain id, height, EthAccount and balances, then signs and finds a bank send', async () => {
    const url = bg!.node.replace('tcp://', 'http://');
    const out = JSON.parse(await runNodeScript(join(REPO_ROOT, 'test/e2e/fixtures/cosmjs-flow.cjs'), [url, JUNK, bob]));
    expect(out.chainId).toBe('testnet');
    expect(out.height).toBeGreaterThan(1);
    expect(out.address).toBe(JUNK_ADDR);
    expect(out.account).toMatchObject({ accountNumber: expect.any(Number), sequence: 1 });
    expect(out.missingAccount).toBeNull();
    expect(BigInt(out.balanceBefore)).toBeGreaterThan(0n);
    expect(out.allBalances).toEqual([{ denom: 'attotoken', amount: out.balanceBefore }]);
    expect(out.broadcast.code).toBe(0);
    expect(out.found).toMatchObject({ code: 0, hash: out.broadcast.hash });
    expect(BigInt(out.recipientAfter)).toBe(BigInt(out.recipientBefore) + 4242n);
    expect(out.simulatedGas).toBe(true);
    expect(out.autoCode).toBe(0);
    // The CLI sees the same tx.
    const tx = JSON.parse(await ok(['q', 'tx', out.broadcast.hash, '--node', bg!.node, '-o', 'json']));
    expect(tx.tx.body.memo).toBe('from cosmjs');
    // CosmJS's tx extension finds it through abci_query /cosmos.tx.v1beta1.Service/GetTx.
    const ext = JSON.parse(await runNodeScript(join(REPO_ROOT, 'test/e2e/fixtures/cosmjs-tx-extension.cjs'), [url, out.broadcast.hash]));
    expect(ext.getTx).toMatchObject({ hash: out.broadcast.hash, code: 0, memo: 'from cosmjs' });
    expect(ext.getTx.height).toBeGreaterThan(0);
    expect(ext.missing).toMatch(/code = NotFound desc = tx not found/);
  });

  test('@grpc/grpc-js calls bank, auth and tendermint services; reflection lists them', async () => {
    const definition = protoLoader.loadSync(
      ['cosmos/bank/v1beta1/query.proto', 'cosmos/auth/v1beta1/query.proto', 'cosmos/base/tendermint/v1beta1/query.proto', 'grpc/reflection/v1alpha/reflection.proto'],
      { includeDirs: [join(REPO_ROOT, 'proto')], keepCase: true, longs: String, enums: String, defaults: true, oneofs: true },
    );
    const pkg = grpc.loadPackageDefinition(definition) as any;
    const credentials = grpc.credentials.createInsecure();
    const unary = (client: any, method: string, request: object): Promise<any> =>
      new Promise((resolve, reject) => client[method](request, (err: Error | null, res: unknown) => (err ? reject(err) : resolve(res))));
    const bank = new pkg.cosmos.bank.v1beta1.Query(bg!.grpc, credentials);
    const balances = await unary(bank, 'AllBalances', { address: JUNK_ADDR });
    expect(balances.balances[0].denom).toBe('attotoken');
    const auth = new pkg.cosmos.auth.v1beta1.Query(bg!.grpc, credentials);
    const account = await unary(auth, 'Account', { address: JUNK_ADDR });
    expect(account.account.type_url).toBe('/ethermint.types.v1.EthAccount');
    await expect(unary(auth, 'Account', { address: 'token1qurswpc8qurswpc8qurswpc8qurswpc8352r9t' })).rejects.toMatchObject({ code: grpc.status.NOT_FOUND });
    const tendermint = new pkg.cosmos.base.tendermint.v1beta1.Service(bg!.grpc, credentials);
    const info = await unary(tendermint, 'GetNodeInfo', {});
    expect(info.default_node_info.network).toBe('testnet');
    const reflection = new pkg.grpc.reflection.v1alpha.ServerReflection(bg!.grpc, credentials);
    const services = await new Promise<string[]>((resolve, reject) => {
      const call = reflection.ServerReflectionInfo();
      call.on('data', (res: any) => {
        resolve(res.list_services_response.service.map((svc: { name: string }) => svc.name));
        call.end();
      });
      call.on('error', reject);
      call.write({ list_services: '' });
    });
    expect(services).toEqual(expect.arrayContaining(['cosmos.bank.v1beta1.Query', 'cosmos.auth.v1beta1.Query', 'cosmos.tx.v1beta1.Service', 'cosmos.base.tendermint.v1beta1.Service']));
    for (const client of [bank, auth, tendermint, reflection]) client.close();
  });

  test('REST gateway answers the spec paths and the upstream ones', async () => {
    const spec = await fetch(`${bg!.api}/sdk/bank/v1beta1/balances/${JUNK_ADDR}`);
    expect(spec.status).toBe(200);
    expect(spec.headers.get('x-cosmos-block-height')).toMatch(/^\d+$/);
    const body = (await spec.json()) as { balances: { denom: string }[]; pagination: object };
    expect(body.balances[0]!.denom).toBe('attotoken');
    const upstream = (await (await fetch(`${bg!.api}/cosmos/bank/v1beta1/balances/${JUNK_ADDR}`)).json()) as object;
    expect(upstream).toEqual(body);
    const empty = (await (await fetch(`${bg!.api}/sdk/bank/v1beta1/balances/token1qurswpc8qurswpc8qurswpc8qurswpc8352r9t`)).json()) as object;
    expect(empty).toEqual({ balances: [], pagination: { next_key: null, total: '0' } });
    const missing = await fetch(`${bg!.api}/sdk/auth/v1beta1/accounts/token1qurswpc8qurswpc8qurswpc8qurswpc8352r9t`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: 5, message: expect.stringContaining('not found') });
    const latest = (await (await fetch(`${bg!.api}/sdk/base/consensus/v1beta1/blocks/latest`)).json()) as { block: { header: { chain_id: string } }; sdk_block: { header: { proposer_address: string } } };
    expect(latest.block.header.chain_id).toBe('testnet');
    expect(latest.sdk_block.header.proposer_address).toMatch(/^tokenvalcons1/);
    const unknown = await fetch(`${bg!.api}/sdk/nothing/here`);
    expect(unknown.status).toBe(501);
  });

  test('CLI query and tx commands against the node (--node), with JSON output', async () => {
    const n = ['--node', bg!.node, '-o', 'json'];
    const kb = ['--keyring-backend', 'test', '--home', home];
    const q = async (...args: string[]): Promise<any> => JSON.parse(await ok(['q', ...args, ...n]));
    expect((await q('auth', 'params')).params.max_memo_characters).toBe('256');
    expect((await q('auth', 'bech32-prefix')).bech32_prefix).toBe('token');
    expect((await q('auth', 'module-account', 'fee_collector')).account['@type']).toBe('/cosmos.auth.v1beta1.ModuleAccount');
    expect((await q('auth', 'accounts', '--limit', '1', '--count-total', '--offset', '0')).accounts).toHaveLength(1);
    expect((await q('bank', 'params')).params.default_send_enabled).toBe(true);
    expect((await q('bank', 'total')).supply[0].denom).toBe('attotoken');
    expect((await q('bank', 'denom-metadata', 'attotoken')).metadata.display).toBe('token');
    expect((await q('bank', 'balance', JUNK_ADDR, 'attotoken')).balance.denom).toBe('attotoken');
    expect((await q('bank', 'denom-owners', 'attotoken')).denom_owners.length).toBeGreaterThan(0);
    expect((await q('bank', 'spendable-balances', JUNK_ADDR)).balances[0].denom).toBe('attotoken');
    const set = await q('tendermint-validator-set');
    expect(set.validators[0].address).toMatch(/^tokenvalcons1/);
    const block = await q('block');
    const height = Number(block.block.header.height);
    // --height reads older state.
    expect((await q('bank', 'balances', JUNK_ADDR, '--height', String(height - 1))).balances).toHaveLength(1);

    // Bad pagination combination: one line, usage exit code.
    const both = await runCli(['q', 'bank', 'balances', JUNK_ADDR, '--page-key', 'AA==', '--offset', '1', ...n]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/either offset or key is expected, got both/);

    // multi-send to two recipients, found by event search with memo and height.
    const carol = JSON.parse(await ok(['keys', 'add', 'carol', '-o', 'json', ...kb])).address;
    const multi = JSON.parse(await ok(['tx', 'bank', 'multi-send', 'alice', bob, carol, '700attotoken', '--note', 'payout-7', '--yes', '-b', 'block', '--fees', '300000attotoken', ...kb, ...n]));
    expect(multi.code).toBe(0);
    const search = await q('txs', '--events', `transfer.recipient=${carol}`);
    expect(search.total_count).toBe('1');
    expect(search.txs[0]).toMatchObject({ txhash: multi.txhash, height: multi.height });
    expect(search.txs[0].tx.body.memo).toBe('payout-7');
    expect((await q('bank', 'balances', carol)).balances[0].amount).toBe('700');
    // The oclif-free fast path of these commands prints byte for byte what the oclif command prints,
    // answers and errors alike (read-only, so all the runs at once).
    await Promise.all(
      [
        ['q', 'bank', 'balances', carol],
        ['q', 'txs', '--events', `transfer.recipient=${carol}`, '-o', 'json'],
        ['q', 'bank', 'balances', 'nope', '-o', 'json'],
        ['q', 'tx', multi.txhash],
        ['q', 'tx', '--type', 'acc_seq', `${JUNK_ADDR}/0`, '-o', 'json'],
        ['q', 'tx', 'AB'.repeat(32)],
        ['q', 'tx', 'not-a-hash', '-o', 'json'],
        ['q', 'account', JUNK_ADDR, '-o', 'json'],
        ['q', 'account', carol],
        ['q', 'account', 'nope'],
      ].map(async (args) => {
        const [fast, oclif] = await Promise.all([runCli([...args, '--node', bg!.node], { timeoutMs: 60000 }), runCli([...args, '--node', bg!.node], { env: { TOKEND_NO_FAST_PATH: '1' }, timeoutMs: 60000 })]);
        expect(fast).toEqual(oclif);
      }),
    );
    // Resuming from a height, as the README tells service providers to.
    expect((await q('txs', '--query', `transfer.recipient='${carol}' AND tx.height>=${multi.height}`)).total_count).toBe('1');
    expect((await q('txs', '--query', `transfer.recipient='${carol}' AND tx.height>${multi.height}`)).total_count).toBe('0');
    const rest = (await (await fetch(`${bg!.api}/sdk/tx/v1beta1/txs?query=${encodeURIComponent(`transfer.recipient='${carol}'`)}&page=1&limit=10`)).json()) as { total: string; tx_responses: { txhash: string }[] };
    expect(rest.tx_responses[0]!.txhash).toBe(multi.txhash);
    const byAccSeq = await q('tx', '--type', 'acc_seq', `${JUNK_ADDR}/${Number(JSON.parse(await ok(['q', 'account', JUNK_ADDR, ...n])).sequence) - 1}`);
    expect(byAccSeq.txhash).toBe(multi.txhash);

    // generate-only → sign (offline) → encode/decode → broadcast.
    const dir = tempHome('tokend-txfiles-');
    const unsigned = await ok(['tx', 'send', 'alice', carol, '11attotoken', '--generate-only', '--fees', '300000attotoken', ...kb, '--node', bg!.node]);
    writeFileSync(join(dir, 'unsigned.json'), unsigned);
    const account = JSON.parse(await ok(['q', 'account', JUNK_ADDR, ...n]));
    const signed = await ok(['tx', 'sign', join(dir, 'unsigned.json'), '--from', 'alice', '--offline', '--account-number', account.account_number, '--sequence', account.sequence, '--chain-id', 'testnet', ...kb]);
    writeFileSync(join(dir, 'signed.json'), signed);
    const encoded = JSON.parse(await ok(['tx', 'encode', join(dir, 'signed.json'), '-o', 'json'])).tx_bytes;
    const decoded = JSON.parse(await ok(['tx', 'decode', encoded, '-o', 'json']));
    expect(decoded.body.messages[0].amount[0].amount).toBe('11');
    const simulated = JSON.parse(await ok(['tx', 'simulate', join(dir, 'unsigned.json'), ...n]));
    expect(Number(simulated.gas_info.gas_used)).toBeGreaterThan(0);
    const broadcast = JSON.parse(await ok(['tx', 'broadcast', join(dir, 'signed.json'), '-b', 'block', ...n]));
    expect(broadcast.code).toBe(0);
    expect((await q('bank', 'balances', carol)).balances[0].amount).toBe('711');

    // Fee below the node's minimum: rejected in CheckTx with the SDK's code 13 text.
    const cheap = await runCli(['tx', 'send', 'alice', bob, '1attotoken', '--yes', ...kb, ...n]);
    expect(cheap.code).toBe(1);
    expect(cheap.stderr).toMatch(/failed with code 13 \(sdk\): insufficient fees; got: *required: 200attotoken/);
    // Signed offline with a stale sequence, broadcast later: code 32.
    const stale = await ok(['tx', 'send', 'alice', bob, '1attotoken', '--offline', '--account-number', account.account_number, '--sequence', '0', '--fees', '300000attotoken', '--chain-id', 'testnet', '--yes', ...kb]);
    writeFileSync(join(dir, 'stale.json'), stale);
    const staleResult = await runCli(['tx', 'broadcast', join(dir, 'stale.json'), ...n]);
    expect(staleResult.code).toBe(1);
    expect(staleResult.stderr).toMatch(/code 32 \(sdk\): account sequence mismatch, expected \d+, got 0/);
    // A tx the chain rejects prints its response and exits 1 with the reason.
    const poor = await runCli(['tx', 'send', 'carol', bob, '1000000attotoken', '--fees', '300attotoken', '--yes', '-b', 'block', ...kb, ...n]);
    expect(poor.code).toBe(1);
    expect(poor.stderr).toMatch(/insufficient funds|does not exist/);
    const wrongChain = await runCli(['tx', 'send', 'alice', bob, '1attotoken', '--chain-id', 'otherchain', '--yes', '--fees', '300000attotoken', ...kb, ...n]);
    expect(wrongChain.code).toBe(1);
    expect(wrongChain.stderr).toMatch(/signature verification failed/);
  });
});
