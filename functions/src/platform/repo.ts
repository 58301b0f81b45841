import type { Container, SqlParameter } from '@azure/cosmos';
import { notFound } from './errors.js';
import { container } from './cosmos.js';
import type { Principal } from './principal.js';
import { validationError } from './validation.js';

/**
 * The tenant a repository call works in. Built from the verified principal (or, for background
 * work, from a message the platform itself queued), never from a request body or query.
 */
export interface TenantScope {
  readonly accountId: string;
  readonly userId?: string;
}

export const scopeOf = (principal: Principal): TenantScope => ({
  accountId: principal.accountId,
  userId: principal.userId,
});

export interface TenantDocument {
  id: string;
  accountId: string;
}

export type Stored<T> = T & { _etag: string; _ts: number };

export interface PageRequest {
  /** A projection such as `c.id, c.name`; every field by default. */
  select?: string;
  /** A SQL condition on `c`, joined to the tenant filter with AND. */
  where?: string;
  parameters?: SqlParameter[];
  /** For example `c.lastName ASC, c.id ASC`; needs a composite index when it names two paths. */
  orderBy?: string;
  pageSize: number;
  continuationToken?: string;
}

export interface Page<T> {
  items: T[];
  continuationToken?: string;
}

const encodeToken = (token: string) => Buffer.from(token, 'utf8').toString('base64url');

function decodeToken(token: string): string {
  const decoded = Buffer.from(token, 'base64url').toString('utf8');
  if (!decoded || encodeToken(decoded) !== token) {
    throw validationError([
      { location: 'query', field: 'continuationToken', message: 'is not a valid page token' },
    ]);
  }
  return decoded;
}

const RESERVED_PARAMETER = '@accountId';

/**
 * Cosmos access for one tenant-partitioned container. Every read, query and write is bound to the
 * caller's account: queries always filter on it and point operations use it as the partition key.
 */
export class TenantRepository<T extends TenantDocument> {
  constructor(private readonly containerId: string) {}

  protected container(): Container {
    return container(this.containerId);
  }

  async find(scope: TenantScope, id: string): Promise<Stored<T> | undefined> {
    const { resource } = await this.container()
      .item(id, scope.accountId)
      .read<Stored<T>>()
      .catch((error: unknown) => {
        if ((error as { code?: unknown }).code === 404) return { resource: undefined };
        throw error;
      });
    // Belt and braces: a document from another tenant is never returned.
    return resource && resource.accountId === scope.accountId ? resource : undefined;
  }

  async get(scope: TenantScope, id: string, what = 'Record'): Promise<Stored<T>> {
    const found = await this.find(scope, id);
    if (!found) throw notFound(`${what} not found`);
    return found;
  }

  async create(scope: TenantScope, document: Omit<T, 'accountId'>): Promise<Stored<T>> {
    const { resource } = await this.container().items.create<T>({
      ...document,
      accountId: scope.accountId,
    } as T);
    return resource as Stored<T>;
  }

  async upsert(scope: TenantScope, document: Omit<T, 'accountId'>): Promise<Stored<T>> {
    const { resource } = await this.container().items.upsert<T>({
      ...document,
      accountId: scope.accountId,
    } as T);
    return resource as unknown as Stored<T>;
  }

  /** Replaces only if nobody changed the document since `etag` was read; otherwise 412. */
  async replace(scope: TenantScope, document: T, etag: string): Promise<Stored<T>> {
    const { resource } = await this.container()
      .item(document.id, scope.accountId)
      .replace<T>(
        { ...document, accountId: scope.accountId },
        { accessCondition: { type: 'IfMatch', condition: etag } },
      );
    return resource as unknown as Stored<T>;
  }

  async delete(scope: TenantScope, id: string, etag?: string): Promise<void> {
    await this.container()
      .item(id, scope.accountId)
      .delete(etag ? { accessCondition: { type: 'IfMatch', condition: etag } } : undefined);
  }

  private tenantQuery(scope: TenantScope, select: string, request: Omit<PageRequest, 'pageSize'>) {
    if (request.parameters?.some((parameter) => parameter.name === RESERVED_PARAMETER)) {
      throw new Error(`${RESERVED_PARAMETER} is set by the repository`);
    }
    const where = request.where ? ` AND (${request.where})` : '';
    const orderBy = request.orderBy ? ` ORDER BY ${request.orderBy}` : '';
    return {
      query: `${select} FROM c WHERE c.accountId = ${RESERVED_PARAMETER}${where}${orderBy}`,
      parameters: [
        { name: RESERVED_PARAMETER, value: scope.accountId },
        ...(request.parameters ?? []),
      ],
    };
  }

  /** One page in the requested order; pass the returned token back for the next. */
  async page(scope: TenantScope, request: PageRequest): Promise<Page<Stored<T>>> {
    const continuationToken = request.continuationToken
      ? decodeToken(request.continuationToken)
      : undefined;
    const iterator = this.container().items.query<Stored<T>>(
      this.tenantQuery(scope, `SELECT ${request.select ?? '*'}`, request),
      {
        partitionKey: scope.accountId,
        maxItemCount: request.pageSize,
        ...(continuationToken ? { continuationToken } : {}),
      },
    );
    try {
      const { resources, continuationToken: next } = await iterator.fetchNext();
      return { items: resources, ...(next ? { continuationToken: encodeToken(next) } : {}) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (continuationToken && (code === 400 || code === 500)) {
        throw validationError([
          { location: 'query', field: 'continuationToken', message: 'is not a valid page token' },
        ]);
      }
      throw error;
    }
  }

  async count(scope: TenantScope, request: Omit<PageRequest, 'pageSize' | 'orderBy'> = {}) {
    const { resources } = await this.container()
      .items.query<number>(this.tenantQuery(scope, 'SELECT VALUE COUNT(1)', request), {
        partitionKey: scope.accountId,
      })
      .fetchAll();
    return resources[0] ?? 0;
  }

  /** The mean of a numeric path over the matching documents, or undefined when none match. */
  async average(
    scope: TenantScope,
    path: string,
    request: Omit<PageRequest, 'pageSize' | 'orderBy'> = {},
  ) {
    const { resources } = await this.container()
      .items.query<number>(this.tenantQuery(scope, `SELECT VALUE AVG(${path})`, request), {
        partitionKey: scope.accountId,
      })
      .fetchAll();
    return resources[0];
  }

  /** Every matching document; for bounded sets only. */
  async all(scope: TenantScope, request: Omit<PageRequest, 'pageSize'> = {}) {
    const { resources } = await this.container()
      .items.query<Stored<T>>(this.tenantQuery(scope, 'SELECT *', request), {
        partitionKey: scope.accountId,
      })
      .fetchAll();
    return resources;
  }
}
