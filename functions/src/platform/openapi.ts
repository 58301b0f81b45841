import { z } from 'zod';
import { errorBodySchema } from './error-body.schema.js';
import type { FunctionDefinition, HttpFunction, RouteContract } from './functions.js';

/**
 * The API description (OpenAPI 3.1) of a set of route tables, built from what every route
 * declares: path, methods, permission, the zod schemas of its params, query, body and reply, and
 * its concurrency. Nothing is written by hand, so a new route is described the day it exists.
 */

type JsonSchema = Record<string, unknown>;

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: string[];
  'x-permission': string;
  security: Record<string, string[]>[];
  parameters: {
    name: string;
    in: 'path' | 'query' | 'header';
    required: boolean;
    schema: JsonSchema;
    description?: string;
  }[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<
    string,
    { description: string; content?: Record<string, { schema: JsonSchema }> }
  >;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    securitySchemes: Record<string, JsonSchema>;
  };
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    // Transforms and the like are described by what they accept; they are rare and bounded.
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

/** The properties of an object schema, as parameters (params and query are flat objects). */
function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query') {
  if (!schema) return [];
  const described = jsonSchema(schema, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(described.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (described.required ?? []).includes(name),
    schema: property,
  }));
}

const errorReply = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

/** The failures a route can answer, from what it declares. */
function errorResponses(fn: HttpFunction, contract: RouteContract) {
  const responses: OpenApiOperation['responses'] = {};
  if (contract.params || contract.query || contract.body) {
    responses['400'] = errorReply('The input is not valid; the message names the field');
  }
  if (fn.permission !== 'public') {
    responses['401'] = errorReply('No valid access token, or its sign-in has ended');
  }
  if (fn.permission !== 'public' && fn.permission !== 'authenticated') {
    responses['403'] = errorReply(`The caller lacks the ${fn.permission} permission`);
  }
  if (fn.route.includes('{')) {
    responses['404'] = errorReply('No such record in the caller’s account');
  }
  if (contract.concurrency !== 'none') {
    responses['412'] = errorReply('The record changed since the ETag sent in If-Match');
  }
  if (contract.concurrency === 'if-match') {
    responses['428'] = errorReply('If-Match is required');
  }
  if (contract.body) {
    responses['413'] = errorReply(`The body is larger than ${contract.maxBodyBytes} bytes`);
  }
  responses['503'] = errorReply('A service Lotwise depends on is not responding');
  return responses;
}

function successResponse(method: string, contract: RouteContract) {
  if (!contract.response) {
    return { description: method === 'DELETE' ? 'Done' : 'Done; see the summary for the reply' };
  }
  return {
    description: 'Success',
    content: { 'application/json': { schema: jsonSchema(contract.response, 'output') } },
  };
}

function operationOf(fn: HttpFunction, method: string, contract: RouteContract): OpenApiOperation {
  const tag = fn.route.split('/')[0]?.replace(/[{}*?]/g, '') || 'root';
  const parameters: OpenApiOperation['parameters'] = [
    ...parametersOf(contract.params, 'path'),
    ...parametersOf(contract.query, 'query'),
  ];
  if (contract.concurrency !== 'none') {
    parameters.push({
      name: 'If-Match',
      in: 'header',
      required: contract.concurrency === 'if-match',
      schema: { type: 'string' },
      description: 'The ETag of the record as the caller read it',
    });
  }
  const operation: OpenApiOperation = {
    operationId: fn.methods.length > 1 ? `${fn.name}-${method.toLowerCase()}` : fn.name,
    summary: contract.summary ?? fn.name.replace(/-/g, ' '),
    tags: [tag],
    'x-permission': fn.permission,
    security:
      fn.permission === 'public'
        ? []
        : [{ bearer: [] }, ...(contract.apiKeys ? [{ apiKey: [] }] : [])],
    parameters,
    responses: {
      // A POST answers 200, 201 (created) or 202 (accepted) by what it did.
      [method === 'POST' ? '2XX' : method === 'DELETE' && !contract.response ? '204' : '200']:
        successResponse(method, contract),
      ...errorResponses(fn, contract),
    },
  };
  if (contract.body) {
    operation.requestBody = {
      required: !contract.body.safeParse(undefined).success,
      content: { 'application/json': { schema: jsonSchema(contract.body, 'input') } },
    };
  }
  return operation;
}

/** The routes a document describes: every HTTP function built with a contract, but the JSON 404. */
export const describedRoutes = (functions: FunctionDefinition[]) =>
  functions.filter(
    (fn): fn is HttpFunction & { contract: RouteContract } =>
      fn.kind === 'http' && fn.contract !== undefined && !fn.route.includes('{*'),
  );

export function openApiDocument(
  functions: FunctionDefinition[],
  info: { title: string; version: string; serverUrl?: string },
): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const fn of describedRoutes(functions)) {
    const path = `/${fn.route}`;
    const entry = (paths[path] ??= {});
    for (const method of fn.methods) {
      entry[method.toLowerCase()] = operationOf(fn, method, fn.contract);
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: info.version,
      description:
        'Generated from the route tables. Every error answers { error: { code, message, details? } }; `x-permission` names the permission each operation needs (the account owner holds all).',
    },
    servers: info.serverUrl ? [{ url: info.serverUrl }] : [],
    paths,
    components: {
      schemas: { Error: jsonSchema(errorBodySchema, 'output') },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'The access token from POST /tokens/access (or a session token where noted)',
        },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'lw_live_…',
          description:
            "One of the house's API keys (Settings › APIs), held to the permissions it was given",
        },
      },
    },
  };
}
