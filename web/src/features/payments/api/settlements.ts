import {
  agreementListSchema,
  agreementSchema,
  buildResultSchema,
  statementListSchema,
  statementSchema,
  type AgreementInput,
  type AgreementTerms,
  type MarkPaid,
  type StatementStatus,
} from '@contracts/payments/settlements/settlements.schema';
import useSWR, { useSWRConfig } from 'swr';
import useSWRInfinite from 'swr/infinite';
import type { z } from 'zod';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/file-download';
import { fetchWith } from '../../../lib/swr';

const statementsPrefix = domainApi('/settlements');
const agreementsPrefix = domainApi('/consignor-agreements');
const defaultAgreementKey = `${agreementsPrefix}/default`;
const statementKey = (id: string) => `${statementsPrefix}/${encodeURIComponent(id)}`;
const agreementKey = (id: string) => `${agreementsPrefix}/${encodeURIComponent(id)}`;
const ifMatch = (etag: string) => ({ 'if-match': `"${etag}"` });

export interface StatementFilters {
  auctionId?: string;
  consignor?: string;
  status?: StatementStatus;
}

const STATEMENT_PAGE_SIZE = 50;

const statementsKey = (filters: StatementFilters, continuationToken: string | null) => {
  const query = new URLSearchParams({ pageSize: String(STATEMENT_PAGE_SIZE) });
  if (filters.auctionId) query.set('auctionId', filters.auctionId);
  if (filters.consignor?.trim()) query.set('consignor', filters.consignor.trim());
  if (filters.status) query.set('status', filters.status);
  if (continuationToken) query.set('continuationToken', continuationToken);
  return `${statementsPrefix}?${query.toString()}`;
};

type StatementPage = z.infer<typeof statementListSchema>;

/** Consignor statements, newest first, a page at a time: "Load more" asks for the next. */
export const useStatements = (filters: StatementFilters) =>
  useSWRInfinite(
    (index: number, previous: StatementPage | null) => {
      if (index === 0) return statementsKey(filters, null);
      return previous?.continuationToken
        ? statementsKey(filters, previous.continuationToken)
        : null;
    },
    fetchWith(statementListSchema),
    { keepPreviousData: true, revalidateAll: true },
  );
export const useStatement = (id: string | null) =>
  useSWR(id ? statementKey(id) : null, fetchWith(statementSchema));
export const useDefaultAgreement = () => useSWR(defaultAgreementKey, fetchWith(agreementSchema));
export const useAgreements = () =>
  useSWR(`${agreementsPrefix}?limit=200`, fetchWith(agreementListSchema));

/** Building, approving and paying statements, and the consignors' agreements. */
export function useSettlementActions() {
  const { mutate, cache } = useSWRConfig();
  /** A filter never matches useSWRInfinite's own keys (`$inf$...`): the lists are named one by one. */
  const refreshStatements = async () => {
    const lists = [...cache.keys()].filter(
      (key) => key.startsWith('$inf$') && key.includes(`${statementsPrefix}?`),
    );
    await Promise.all([
      mutate((key) => typeof key === 'string' && key.startsWith(statementsPrefix)),
      ...lists.map((key) => mutate(key)),
    ]);
  };
  const refreshAgreements = () =>
    mutate((key) => typeof key === 'string' && key.startsWith(agreementsPrefix));
  const settle = async (saved: Awaited<ReturnType<typeof statementSchema.parse>>) => {
    await mutate(statementKey(saved.id), saved, { revalidate: false });
    await refreshStatements();
    return saved;
  };
  return {
    fetchStatement: async (id: string) => {
      const fresh = await apiRequest(statementKey(id), { schema: statementSchema });
      await mutate(statementKey(id), fresh, { revalidate: false });
      return fresh;
    },
    build: async (auctionId: string) => {
      const result = await apiRequest(
        domainApi(`/auctions/${encodeURIComponent(auctionId)}/settlements`),
        { method: 'POST', schema: buildResultSchema },
      );
      await refreshStatements();
      return result;
    },
    approve: async (statement: { id: string; etag: string }) =>
      settle(
        await apiRequest(`${statementKey(statement.id)}/approve`, {
          method: 'POST',
          headers: ifMatch(statement.etag),
          schema: statementSchema,
        }),
      ),
    markPaid: async (statement: { id: string; etag: string }, body: MarkPaid) =>
      settle(
        await apiRequest(`${statementKey(statement.id)}/mark-paid`, {
          method: 'POST',
          body,
          headers: ifMatch(statement.etag),
          schema: statementSchema,
        }),
      ),
    /** The statement PDF, saved under the service's file name. */
    downloadStatement: (id: string) =>
      downloadFile(`${statementKey(id)}/statement.pdf`, 'settlement-statement.pdf'),
    saveDefaultAgreement: async (etag: string, body: AgreementTerms) => {
      const saved = await apiRequest(defaultAgreementKey, {
        method: 'PUT',
        body,
        headers: ifMatch(etag),
        schema: agreementSchema,
      });
      await refreshAgreements();
      return saved;
    },
    createAgreement: async (body: AgreementInput) => {
      const saved = await apiRequest(agreementsPrefix, {
        method: 'POST',
        body,
        schema: agreementSchema,
      });
      await refreshAgreements();
      return saved;
    },
    updateAgreement: async (agreement: { id: string; etag: string }, body: AgreementInput) => {
      const saved = await apiRequest(agreementKey(agreement.id), {
        method: 'PUT',
        body,
        headers: ifMatch(agreement.etag),
        schema: agreementSchema,
      });
      await refreshAgreements();
      return saved;
    },
    removeAgreement: async (agreement: { id: string; etag: string }) => {
      await apiRequest(agreementKey(agreement.id), {
        method: 'DELETE',
        headers: ifMatch(agreement.etag),
      });
      await refreshAgreements();
    },
    fetchAgreement: (id: string) => apiRequest(agreementKey(id), { schema: agreementSchema }),
    fetchDefaultAgreement: () => apiRequest(defaultAgreementKey, { schema: agreementSchema }),
  };
}
