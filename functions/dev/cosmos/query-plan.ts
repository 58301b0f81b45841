import type { IncomingMessage } from 'node:http';
import type { EmulatorHandler } from './emulator-types.js';

/**
 * The plan the emulator gives for every query. The SDK asks for a plan alongside each item query
 * (`x-ms-cosmos-is-query-plan-request`) and uses it only when told the query needs one; the
 * package answered by running the whole query, which doubled the cost of every query. The
 * emulator serves each query whole from its one partition key range (ORDER BY, TOP and aggregates
 * included), so the honest plan asks the SDK for no work of its own.
 */
const WHOLE_QUERY_PLAN = {
  partitionedQueryExecutionInfoVersion: 2,
  queryInfo: {
    distinctType: 'None',
    top: null,
    offset: null,
    limit: null,
    orderBy: [],
    orderByExpressions: [],
    groupByExpressions: [],
    groupByAliases: [],
    aggregates: [],
    groupByAliasToAggregateType: {},
    rewrittenQuery: '',
    hasSelectValue: false,
    hasNonStreamingOrderBy: false,
  },
  queryRanges: [{ min: '', max: 'FF', isMinInclusive: true, isMaxInclusive: false }],
};

const isPlanRequest = (request: IncomingMessage) =>
  String(request.headers['x-ms-cosmos-is-query-plan-request']).toLowerCase() === 'true';

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Answers query plan requests without running the query; other queries go to `handler`. */
export function answeringQueryPlans(handler: EmulatorHandler): EmulatorHandler {
  return async (account, request, response, params) => {
    if (!isPlanRequest(request)) return handler(account, request, response, params);
    const body = (await readJson(request)) as { query?: unknown } | undefined;
    const collection = account.database(params.dbId as string).collection(params.collId as string);
    if (!collection.read()) {
      response.statusCode = 404;
      return { code: 'NotFound', message: 'Entity with the specified id does not exist.' };
    }
    if (typeof body?.query !== 'string') {
      response.statusCode = 400;
      return { code: 'BadRequest', message: 'missing query' };
    }
    try {
      // Compiling it finds the errors running it would.
      void collection.documents._getQuery(body.query).code;
    } catch (error) {
      response.statusCode = 400;
      return { code: 'BadRequest', message: error instanceof Error ? error.message : 'bad query' };
    }
    return WHOLE_QUERY_PLAN;
  };
}
