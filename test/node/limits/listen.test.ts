/**
 * The line a server that cannot listen fails with (limits/listen.ts): system errors become one
 * line with the server, the address and a hint; anything else is passed on unchanged.
 */
import { describe, expect, it } from '@jest/globals';
import { listenError } from '../../../src/node/limits/listen.js';
import { TokendError } from '../../../src/util/errors.js';

const sysError = (code: string, message: string): NodeJS.ErrnoException => Object.assign(new Error(message), { code, syscall: 'listen' });

describe('listenError', () => {
  it('words a port in use and a refused bind, and names the setting in the hint', () => {
    const busy = listenError('gRPC', '127.0.0.1:9090', '[grpc] address', sysError('EADDRINUSE', 'listen EADDRINUSE: address already in use 127.0.0.1:9090'));
    expect(busy).toBeInstanceOf(TokendError);
    expect(busy).toMatchObject({ code: 'CONFIG_INVALID', message: 'cannot listen for gRPC on 127.0.0.1:9090: address already in use', hint: 'stop the other process or set [grpc] address to a free port' });
    expect(listenError('RPC', 'tcp://0.0.0.0:80', 'rpc.laddr', sysError('EACCES', 'listen EACCES: permission denied 0.0.0.0:80')).message).toBe('cannot listen for RPC on tcp://0.0.0.0:80: permission denied');
  });

  it("keeps another system error's own text", () => {
    const err = listenError('the REST gateway', 'tcp://10.9.9.9:1317', '[api] address', sysError('EADDRNOTAVAIL', 'listen EADDRNOTAVAIL: address not available 10.9.9.9:1317'));
    expect(err.message).toBe('cannot listen for the REST gateway on tcp://10.9.9.9:1317: listen EADDRNOTAVAIL: address not available 10.9.9.9:1317');
  });

  it('passes on an error that is not a listen failure (a thread that died before listening), without a hint', () => {
    const died = new Error('the REST gateway thread exited (code 1) before listening');
    expect(listenError('the REST gateway', 'tcp://127.0.0.1:1317', '[api] address', died)).toBe(died);
    expect(listenError('gRPC', '127.0.0.1:9090', '[grpc] address', 'boom').message).toBe('boom');
  });
});
