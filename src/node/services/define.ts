/** Typed construction of node-level `QueryEntry`s from a generated service. */
import type { DescService, Message, MessageShape } from '@bufbuild/protobuf';
import type { GenService, GenServiceMethods } from '@bufbuild/protobuf/codegenv2';
import { QueryError, isQueryError, methodPath, type QueryEntry, type QueryResult } from './types.js';

/** Handlers by method local name ("getLatestBlock"); methods left out are not served. */
export type NodeServiceImpl<M extends GenServiceMethods> = {
  [K in keyof M]?: (request: MessageShape<M[K]['input']>) => Promise<MessageShape<M[K]['output']>>;
};

type AnyHandler = (request: Message) => Promise<Message>;

/**
 * One `node` entry per implemented method. Answers carry `latestHeight()` as their height;
 * anything a handler throws that is not a QueryError becomes Internal.
 */
export function nodeServiceEntries<M extends GenServiceMethods>(service: GenService<M>, impl: NodeServiceImpl<M>, latestHeight: () => number): QueryEntry[] {
  const desc = service as unknown as DescService;
  const entries: QueryEntry[] = [];
  for (const method of desc.methods) {
    const handler = (impl as Record<string, AnyHandler | undefined>)[method.localName];
    if (handler === undefined) continue;
    entries.push({
      path: methodPath(method),
      method,
      source: 'node',
      async handle(request: Message): Promise<QueryResult> {
        try {
          const response = await handler(request);
          return { response, height: latestHeight() };
        } catch (err) {
          if (isQueryError(err)) throw err;
          throw new QueryError('Internal', err instanceof Error ? err.message : String(err), { cause: err });
        }
      },
    });
  }
  return entries;
}
