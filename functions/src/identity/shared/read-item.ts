import type { Container } from '@azure/cosmos';
import { isNotFound } from '../../platform/cosmos-errors.js';
import { isStorableId, type Stored } from '../../platform/repo.js';

/** One document by id and partition key, or undefined when there is none. */
export async function readItem<T>(
  container: Container,
  id: string,
  partition: string = id,
): Promise<Stored<T> | undefined> {
  if (!isStorableId(id) || !isStorableId(partition)) return undefined;
  try {
    const { resource } = await container.item(id, partition).read<Stored<T>>();
    return resource;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
