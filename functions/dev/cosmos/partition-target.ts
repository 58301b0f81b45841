/**
 * Which single partition a query is confined to, if any: the partition key the request names, or
 * else a top-level `<alias>.<partition key path> = <literal or parameter>` in its WHERE clause.
 * Cosmos answers such a query from that partition alone; so may the emulator, because every
 * document the query could match lives there.
 */

/** The parts of @zeit/cosmosdb-query's syntax tree looked at here. */
interface SyntaxNode {
  type: string;
  [key: string]: unknown;
}

export interface QueryParameter {
  name: string;
  value: unknown;
}

/** A value that names one partition; `found: false` means the query may touch any. */
export type PartitionTarget = { found: true; value: PartitionValue } | { found: false };
export type PartitionValue = string | number | boolean | null;

const ANY: PartitionTarget = { found: false };

function isNode(value: unknown): value is SyntaxNode {
  return (
    typeof value === 'object' && value !== null && typeof (value as SyntaxNode).type === 'string'
  );
}

function isPartitionValue(value: unknown): value is PartitionValue {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** The partition the `x-ms-documentdb-partitionkey` header names: `["value"]`. */
export function partitionFromHeader(header: string | string[] | undefined): PartitionTarget {
  const raw = Array.isArray(header) ? header[0] : header;
  if (!raw) return ANY;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return ANY;
  }
  // `[{}]` is the SDK's "no partition key"; hierarchical keys (several values) are not indexed.
  if (Array.isArray(parsed) && parsed.length === 1 && isPartitionValue(parsed[0])) {
    return { found: true, value: parsed[0] };
  }
  return ANY;
}

/** `c.a.b` or `c["a"]["b"]` as `['c', 'a', 'b']`; undefined for anything else. */
function memberPath(node: SyntaxNode): string[] | undefined {
  if (node.type === 'identifier' && typeof node.name === 'string') return [node.name];
  if (node.type !== 'scalar_member_expression' || !isNode(node.object) || !isNode(node.property)) {
    return undefined;
  }
  const head = memberPath(node.object);
  const { property } = node;
  const key =
    property.type === 'identifier'
      ? property.name
      : property.type === 'string_constant'
        ? property.value
        : undefined;
  return head && typeof key === 'string' ? [...head, key] : undefined;
}

const CONSTANTS = new Set(['string_constant', 'number_constant', 'boolean_constant']);

function operandValue(node: SyntaxNode, parameters: readonly QueryParameter[]): PartitionTarget {
  if (node.type === 'null_constant') return { found: true, value: null };
  if (CONSTANTS.has(node.type) && isPartitionValue(node.value)) {
    return { found: true, value: node.value };
  }
  if (node.type === 'parameter_name') {
    const parameter = parameters.find((candidate) => candidate.name === node.name);
    // A missing parameter compares as undefined, which matches nothing: no shortcut for it.
    if (parameter && isPartitionValue(parameter.value))
      return { found: true, value: parameter.value };
  }
  return ANY;
}

/** The name documents of the collection go by in the query (`c` in `FROM c`, `r` in `FROM root r`). */
function rootName(from: unknown): string | undefined {
  if (!isNode(from) || from.type !== 'from_specification' || !isNode(from.source)) return undefined;
  const { source } = from;
  if (source.iteration || !isNode(source.expression)) return undefined;
  const collection = source.expression;
  if (collection.type !== 'collection_expression' || !isNode(collection.expression)) {
    return undefined;
  }
  if (collection.expression.type !== 'identifier') return undefined;
  const name = isNode(source.alias) ? source.alias.name : collection.expression.name;
  if (typeof name !== 'string') return undefined;
  // A JOIN alias that reuses the root's name would hide it.
  const joins = Array.isArray(from.joins) ? (from.joins as unknown[]) : [];
  const shadowed = joins.some(
    (join) => isNode(join) && isNode(join.alias) && join.alias.name === name,
  );
  return shadowed ? undefined : name;
}

/** The conditions joined by top-level ANDs: each must hold for a document to match. */
function conjuncts(node: SyntaxNode): SyntaxNode[] {
  if (
    node.type === 'scalar_binary_expression' &&
    node.operator === 'AND' &&
    isNode(node.left) &&
    isNode(node.right)
  ) {
    return [...conjuncts(node.left), ...conjuncts(node.right)];
  }
  return [node];
}

/**
 * The partition a query's WHERE pins, given the collection's partition key path (`['accountId']`).
 * Only an equality every match must satisfy counts: one under OR or NOT does not.
 */
export function partitionFromQuery(
  ast: unknown,
  parameters: readonly QueryParameter[],
  partitionKeyPath: readonly string[],
): PartitionTarget {
  if (!isNode(ast) || ast.type !== 'sql' || !isNode(ast.body)) return ANY;
  const { body } = ast;
  const root = rootName(body.from);
  if (!root || !isNode(body.where) || !isNode(body.where.condition)) return ANY;
  const wanted = [root, ...partitionKeyPath].join('\u0000');
  for (const condition of conjuncts(body.where.condition)) {
    if (condition.type !== 'scalar_binary_expression' || condition.operator !== '=') continue;
    const { left, right } = condition;
    if (!isNode(left) || !isNode(right)) continue;
    for (const [member, operand] of [
      [left, right],
      [right, left],
    ] as const) {
      if (memberPath(member)?.join('\u0000') !== wanted) continue;
      const target = operandValue(operand, parameters);
      if (target.found) return target;
    }
  }
  return ANY;
}
