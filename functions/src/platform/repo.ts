import type {
  Container,
  JSONObject,
  OperationInput,
  OperationResponse,
  PatchOperation,
  SqlParameter,
} from '@azure/cosmos';
import type { AccountScope } from './context.js';

export type { AccountScope } from './context.js';
import { isNotFound, statusOf, withStatus } from './cosmos-errors.js';
import { notFound } from './errors.js';
import { container } from './cosmos.js';
import { inFlight } from './in-flight.js';
import { validationError } from './validation.js';

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

/** One operation of a transactional batch in the tenant's partition. */
export type BatchOperation<T> =
  | { op: 'create'; document: Omit<T, 'accountId'> }
  | { op: 'upsert'; document: Omit<T, 'accountId'> }
  | { op: 'replace'; document: Omit<T, 'accountId'>; etag?: string }
  | { op: 'delete'; id: string; etag?: string }
  | { op: 'patch'; id: string; operations: PatchOperation[]; etag?: string };

/** Cosmos takes at most 100 operations in one transactional batch. */
export const MAX_BATCH_OPERATIONS = 100;

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

/** A patch never moves a document to another tenant or renames it. */
function keepsIdentity(operations: PatchOperation[]) {
  if (operations.some((operation) => operation.path === '/accountId' || operation.path === '/id')) {
    throw new Error('The tenant and id of a document cannot be patched');
  }
}

/**
 * Whether Cosmos can hold a document with this id: it refuses, before sending anything, an id
 * that is blank or holds `/`, `\\`, `#` or `?`. An id from a request that cannot be stored names
 * no document, so looking it up finds nothing instead of failing.
 */
export const isStorableId = (id: string) => id.trim() !== '' && !/[/\\#?]/.test(id);

const noSuchDocument = () => withStatus(404, 'No document can have this id');

/** Deletes a document; one already gone counts as deleted (a removal run twice, or resumed). */
export async function deleteIfPresent(
  target: Container,
  id: string,
  partition: string,
): Promise<void> {
  try {
    await target.item(id, partition).delete();
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** Deletes the documents a query names (`id` and partition key `pk` of each), a few at a time. */
export async function deleteAll(
  target: Container,
  query: { query: string; parameters: SqlParameter[] },
  options: { partitionKey?: string } = {},
): Promise<number> {
  const { resources } = await target.items
    .query<{ id: string; pk: string }>(query, options)
    .fetchAll();
  const writes = inFlight(10);
  for (const { id, pk } of resources) await writes.add(deleteIfPresent(target, id, pk));
  await writes.finish();
  return resources.length;
}

/**
 * Cosmos access for one tenant-partitioned container. Every read, query and write is bound to the
 * caller's account: queries always filter on it and point operations use it as the partition key.
 */
export class TenantRepository<T extends TenantDocument> {
  constructor(private readonly containerId: string) {}

  protected container(): Container {
    return container(this.containerId);
  }

  async find(scope: AccountScope, id: string): Promise<Stored<T> | undefined> {
    if (!isStorableId(id)) return undefined;
    const { resource } = await this.container()
      .item(id, scope.accountId)
      .read<Stored<T>>()
      .catch((error: unknown) => {
        if (isNotFound(error)) return { resource: undefined };
        throw error;
      });
    // Belt and braces: a document from another tenant is never returned.
    return resource && resource.accountId === scope.accountId ? resource : undefined;
  }

  async get(scope: AccountScope, id: string, what = 'Record'): Promise<Stored<T>> {
    const found = await this.find(scope, id);
    if (!found) throw notFound(`${what} not found`);
    return found;
  }

  async create(scope: AccountScope, document: Omit<T, 'accountId'>): Promise<Stored<T>> {
    const { resource } = await this.container().items.create<T>({
      ...document,
      accountId: scope.accountId,
    } as T);
    return resource as Stored<T>;
  }

  async upsert(scope: AccountScope, document: Omit<T, 'accountId'>): Promise<Stored<T>> {
    const { resource } = await this.container().items.upsert<T>({
      ...document,
      accountId: scope.accountId,
    } as T);
    return resource as unknown as Stored<T>;
  }

  /** Replaces only if nobody changed the document since `etag` was read; otherwise 412. */
  async replace(scope: AccountScope, document: T, etag: string): Promise<Stored<T>> {
    if (!isStorableId(document.id)) throw noSuchDocument();
    const { resource } = await this.container()
      .item(document.id, scope.accountId)
      .replace<T>(
        { ...document, accountId: scope.accountId },
        { accessCondition: { type: 'IfMatch', condition: etag } },
      );
    return resource as unknown as Stored<T>;
  }

  async delete(scope: AccountScope, id: string, etag?: string): Promise<void> {
    if (!isStorableId(id)) throw noSuchDocument();
    await this.container()
      .item(id, scope.accountId)
      .delete(etag ? { accessCondition: { type: 'IfMatch', condition: etag } } : undefined);
  }

  /**
   * Changes some paths of one document in place. With `etag`, only if nobody changed it since;
   * with `condition` (`FROM c WHERE ...`), only if the document still matches. Otherwise 412.
   */
  async patch(
    scope: AccountScope,
    id: string,
    operations: PatchOperation[],
    guard: { etag?: string; condition?: string } = {},
  ): Promise<Stored<T>> {
    keepsIdentity(operations);
    if (!isStorableId(id)) throw noSuchDocument();
    const { resource } = await this.container()
      .item(id, scope.accountId)
      .patch<T>(
        guard.condition ? { condition: guard.condition, operations } : operations,
        guard.etag ? { accessCondition: { type: 'IfMatch', condition: guard.etag } } : undefined,
      );
    return resource as unknown as Stored<T>;
  }

  /**
   * Writes up to 100 operations in the tenant's partition (creates, replaces, deletes, patches),
   * all or none, and answers the documents written. A refused operation throws with its status
   * (409 for a duplicate, 412 for a stale ETag, 404 for a missing one).
   */
  async batch(scope: AccountScope, operations: BatchOperation<T>[]): Promise<Stored<T>[]> {
    const results = await this.send(scope, operations, true);
    return results.map((result) => result.resourceBody as unknown as Stored<T>);
  }

  /**
   * `batch` for bulk writes nobody reads back (an import's rows, a recompute's scores): Cosmos
   * answers each operation's status without the document, which halves what crosses the wire.
   */
  async writeBatch(scope: AccountScope, operations: BatchOperation<T>[]): Promise<void> {
    await this.send(scope, operations, false);
  }

  private async send(
    scope: AccountScope,
    operations: BatchOperation<T>[],
    withDocuments: boolean,
  ): Promise<OperationResponse[]> {
    if (operations.length === 0) return [];
    if (operations.length > MAX_BATCH_OPERATIONS) {
      throw new Error(`A batch takes at most ${MAX_BATCH_OPERATIONS} operations`);
    }
    // Documents that carry a tenant already (as new bidders do) keep their shape, which V8 copies
    // many times faster than one it must extend; either way the tenant is the caller's.
    const owned = (document: Omit<T, 'accountId'>) =>
      ({ ...document, accountId: scope.accountId }) as unknown as JSONObject;
    const inputs: OperationInput[] = operations.map((operation) => {
      switch (operation.op) {
        case 'create':
          return { operationType: 'Create', resourceBody: owned(operation.document) };
        case 'upsert':
          return { operationType: 'Upsert', resourceBody: owned(operation.document) };
        case 'replace':
          return {
            operationType: 'Replace',
            id: (operation.document as { id: string }).id,
            resourceBody: owned(operation.document),
            ...(operation.etag ? { ifMatch: operation.etag } : {}),
          };
        case 'delete':
          return {
            operationType: 'Delete',
            id: operation.id,
            ...(operation.etag ? { ifMatch: operation.etag } : {}),
          };
        case 'patch':
          keepsIdentity(operation.operations);
          return {
            operationType: 'Patch',
            id: operation.id,
            resourceBody: { operations: operation.operations },
            ...(operation.etag ? { ifMatch: operation.etag } : {}),
          };
      }
    });
    const response = await this.container().items.batch(
      inputs,
      scope.accountId,
      withDocuments ? undefined : { contentResponseOnWriteEnabled: false },
    );
    const results = response.result ?? [];
    // The operation that failed carries its own status; the others answer 424.
    const failed =
      results.find((result) => result.statusCode >= 400 && result.statusCode !== 424) ??
      results.find((result) => result.statusCode >= 400);
    if (failed) throw withStatus(failed.statusCode, 'A batch write was refused');
    return results;
  }

  private tenantQuery(scope: AccountScope, select: string, request: Omit<PageRequest, 'pageSize'>) {
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
  async page(scope: AccountScope, request: PageRequest): Promise<Page<Stored<T>>> {
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
      if (continuationToken && (statusOf(error) === 400 || statusOf(error) === 500)) {
        throw validationError([
          { location: 'query', field: 'continuationToken', message: 'is not a valid page token' },
        ]);
      }
      throw error;
    }
  }

  /**
   * The first `count` rows of a query in its order, a page at a time: Cosmos may answer a page with
   * fewer rows than asked, and reads (as the emulator sorts) only as far as the rows wanted.
   */
  async firstRows<R>(
    scope: AccountScope,
    request: Omit<PageRequest, 'pageSize' | 'continuationToken'>,
    count: number,
  ): Promise<R[]> {
    const rows: R[] = [];
    let continuationToken: string | undefined;
    do {
      const page = await this.page(scope, {
        ...request,
        pageSize: count - rows.length,
        ...(continuationToken ? { continuationToken } : {}),
      });
      rows.push(...(page.items as unknown as R[]));
      continuationToken = page.continuationToken;
    } while (continuationToken && rows.length < count);
    return rows.slice(0, count);
  }

  /**
   * One numbered page (1-based) of a list's documents. The emulator has no OFFSET, and OFFSET
   * costs Cosmos what it skips anyway: the first page is read whole, a later one is found from the
   * ordered ids up to its end (small rows) and then read whole.
   */
  async numberedPage(
    scope: AccountScope,
    request: Pick<PageRequest, 'where' | 'parameters' | 'orderBy'>,
    page: number,
    limit: number,
  ): Promise<Stored<T>[]> {
    const start = (page - 1) * limit;
    if (start === 0) return this.firstRows<Stored<T>>(scope, request, limit);
    const ids = (
      await this.firstRows<{ id: string }>(scope, { ...request, select: 'c.id' }, start + limit)
    )
      .slice(start)
      .map((row) => row.id);
    if (ids.length === 0) return [];
    const documents = await this.all(scope, {
      where: `${request.where ? `(${request.where}) AND ` : ''}ARRAY_CONTAINS(@pageIds, c.id)`,
      parameters: [...(request.parameters ?? []), { name: '@pageIds', value: ids }],
    });
    const byId = new Map(documents.map((document) => [document.id, document]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async count(scope: AccountScope, request: Omit<PageRequest, 'pageSize' | 'orderBy'> = {}) {
    const { resources } = await this.container()
      .items.query<number>(this.tenantQuery(scope, 'SELECT VALUE COUNT(1)', request), {
        partitionKey: scope.accountId,
      })
      .fetchAll();
    return resources[0] ?? 0;
  }

  /** The mean of a numeric path over the matching documents, or undefined when none match. */
  async average(
    scope: AccountScope,
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

  /** Deletes every document of the tenant in this container (removing the tenant); how many. */
  purge(scope: AccountScope): Promise<number> {
    return deleteAll(
      this.container(),
      {
        query: `SELECT c.id, c.accountId AS pk FROM c WHERE c.accountId = ${RESERVED_PARAMETER}`,
        parameters: [{ name: RESERVED_PARAMETER, value: scope.accountId }],
      },
      { partitionKey: scope.accountId },
    );
  }

  /** Every matching document (or the `select`ed fields of each); for bounded sets only. */
  async all(scope: AccountScope, request: Omit<PageRequest, 'pageSize'> = {}) {
    const { resources } = await this.container()
      .items.query<Stored<T>>(this.tenantQuery(scope, `SELECT ${request.select ?? '*'}`, request), {
        partitionKey: scope.accountId,
      })
      .fetchAll();
    return resources;
  }
}
