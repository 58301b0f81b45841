import {
  groupSchema,
  groupsResponseSchema,
  houseSchema,
  housesResponseSchema,
  type GroupUpdate,
  type House,
  type HouseGroup,
  type HouseUpdate,
  type houseInputSchema,
  type groupInputSchema,
} from '@contracts/identity/accounts/accounts.schema';
import useSWR, { useSWRConfig } from 'swr';
import type { z } from 'zod';
import { renewAccess } from '../../../lib/access';
import { apiRequest, authApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';

/** A new house or group as the form sends it: the service fills in what is left out. */
export type HouseBody = z.input<typeof houseInputSchema>;
export type GroupBody = z.input<typeof groupInputSchema>;
export type { GroupUpdate, House, HouseGroup, HouseUpdate };

// The same key the auction forms read their house pickers by, so a change here shows there too.
const housesKey = authApi('/accounts/current/auction-houses');
const houseKey = (id: string) => authApi(`/auction-houses/${encodeURIComponent(id)}`);
const groupsKey = authApi('/auction-house-groups');
const groupKey = (id: string) => authApi(`/auction-house-groups/${encodeURIComponent(id)}`);
const ifMatch = (etag: string) => ({ 'if-match': `"${etag}"` });

/** The account's auction houses (those the signed-in person may see). */
export const useHouses = () => useSWR(housesKey, fetchWith(housesResponseSchema));
/** The account's groups of houses, by name. */
export const useGroups = () => useSWR(groupsKey, fetchWith(groupsResponseSchema));

/** One house or group as the server holds it now, with its current ETag. */
export const fetchHouse = (id: string) => apiRequest(houseKey(id), { schema: houseSchema });
export const fetchGroup = (id: string) => apiRequest(groupKey(id), { schema: groupSchema });

/**
 * Creating, changing and deleting houses. Each keeps the list in step, and renews the signed-in
 * account: its view (the shell's house count and banner) and its token both list the houses.
 */
export function useHouseActions() {
  const { mutate } = useSWRConfig();
  const refresh = async () => {
    await Promise.all([mutate(housesKey), mutate(groupsKey)]);
  };
  const followed = async () => {
    await Promise.all([refresh(), renewAccess().catch(() => undefined)]);
  };
  return {
    refresh,
    create: async (body: HouseBody) => {
      const created = await apiRequest(housesKey, { method: 'POST', body, schema: houseSchema });
      await followed();
      return created;
    },
    /** Changes a house as the form saw it (412 when someone saved it since). */
    update: async (house: Pick<House, 'id' | 'etag'>, changes: HouseUpdate) => {
      const saved = await apiRequest(houseKey(house.id), {
        method: 'PUT',
        body: changes,
        headers: ifMatch(house.etag),
        schema: houseSchema,
      });
      await followed();
      return saved;
    },
    /** Refused (409, with the reason) while anything still belongs to the house. */
    remove: async (house: Pick<House, 'id'>) => {
      await apiRequest(houseKey(house.id), { method: 'DELETE' });
      // Groups lose the house too.
      await followed();
    },
  };
}

/** Creating, changing and deleting groups; each keeps the list in step. */
export function useGroupActions() {
  const { mutate } = useSWRConfig();
  const refresh = () => mutate(groupsKey);
  return {
    refresh,
    create: async (body: GroupBody) => {
      const created = await apiRequest(groupsKey, { method: 'POST', body, schema: groupSchema });
      await refresh();
      return created;
    },
    /** Changes a group as the form saw it (412 when someone saved it since). */
    update: async (group: Pick<HouseGroup, 'id' | 'etag'>, changes: GroupUpdate) => {
      const saved = await apiRequest(groupKey(group.id), {
        method: 'PUT',
        body: changes,
        headers: ifMatch(group.etag),
        schema: groupSchema,
      });
      await refresh();
      return saved;
    },
    remove: async (group: Pick<HouseGroup, 'id'>) => {
      await apiRequest(groupKey(group.id), { method: 'DELETE' });
      await refresh();
    },
  };
}
