import { listAuctionsResponseSchema } from '@contracts/auctions/auctions.schema';
import { bidderSchema, listResponseSchema } from '@contracts/bidders/bidders.schema';
import {
  actionItemSchema,
  actionItemsSchema,
  assigneesSchema,
  caseAnalyticsSchema,
  caseSchema,
  listCasesResponseSchema,
  noteSchema,
  notesSchema,
  timelineSchema,
  type ActionItem,
  type ActionUpdate,
  type ApprovalDecision,
  type CaseUpdate,
  type SettlementPaymentInput,
  type StatusChange,
  type actionInputSchema,
  type caseInputSchema,
  type nonPaymentInputSchema,
} from '@contracts/legal/legal.schema';
import {
  caseDocumentsSchema,
  documentLinkSchema,
  type DocumentType,
} from '@contracts/legal/documents/documents.schema';
import { rulesSchema } from '@contracts/legal/rules/rules.schema';
import useSWR, { useSWRConfig } from 'swr';
import type { z } from 'zod';
import { apiRequest, domainApi } from '../../../lib/api-client';
import { fetchWith } from '../../../lib/swr';
import { uploadForm, type UploadProgress } from '../../../lib/upload';
import { listQuery, type CaseListFilters } from './list-query';

export type CaseBody = z.input<typeof caseInputSchema>;
export type NonPaymentBody = z.input<typeof nonPaymentInputSchema>;
export type ActionBody = z.input<typeof actionInputSchema>;

const listPrefix = domainApi('/listLegalCases');
const listKey = (filters: CaseListFilters, state?: 'active') =>
  `${listPrefix}?${listQuery(filters, state)}`;
const analyticsKey = domainApi('/legal/analytics');
const assigneesKey = domainApi('/legal/assignees');
const rulesKey = domainApi('/workflows/rules');
const casePath = (id: string) => `/cases/${encodeURIComponent(id)}`;
const caseKey = (id: string) => domainApi(casePath(id));
const timelineKey = (id: string) => domainApi(`${casePath(id)}/timeline`);
const notesKey = (id: string) => domainApi(`${casePath(id)}/notes`);
const actionsKey = (id: string) => domainApi(`${casePath(id)}/actions`);
const documentsKey = (id: string) => domainApi(`${casePath(id)}/documents`);
const documentKey = (id: string, documentId: string) =>
  `${documentsKey(id)}/${encodeURIComponent(documentId)}`;

/** The cases of one page of the list; `active` is the Active Cases tab. */
export const useCaseList = (filters: CaseListFilters, state?: 'active') =>
  useSWR(listKey(filters, state), fetchWith(listCasesResponseSchema), { keepPreviousData: true });
export const useCaseAnalytics = () => useSWR(analyticsKey, fetchWith(caseAnalyticsSchema));
export const useAssignees = () => useSWR(assigneesKey, fetchWith(assigneesSchema));
/** The account's workflow rules: the built-in automation rules (each on or off) and its own. */
export const useWorkflowRules = () => useSWR(rulesKey, fetchWith(rulesSchema));
export const useCase = (id: string) => useSWR(caseKey(id), fetchWith(caseSchema));
export const useTimeline = (id: string) => useSWR(timelineKey(id), fetchWith(timelineSchema));
export const useNotes = (id: string) => useSWR(notesKey(id), fetchWith(notesSchema));
export const useDocuments = (id: string | null) =>
  useSWR(id ? documentsKey(id) : null, fetchWith(caseDocumentsSchema));
export const useActionItems = (id: string) => useSWR(actionsKey(id), fetchWith(actionItemsSchema));

const pickerParams = (search: string) => {
  const params = new URLSearchParams({ limit: '20' });
  if (search.trim()) params.set('search', search.trim());
  return params;
};
/** Auctions by title, for naming the one a case is about. */
export const useAuctionSearch = (search: string) =>
  useSWR(
    domainApi(`/listAuctions?${pickerParams(search)}`),
    fetchWith(listAuctionsResponseSchema),
    { keepPreviousData: true },
  );
/** Bidders by name, bidder ID or email, for naming the one a case is about. */
export const useBidderSearch = (search: string) =>
  useSWR(domainApi(`/listBidders?${pickerParams(search)}`), fetchWith(listResponseSchema), {
    keepPreviousData: true,
  });

/** The bidder a form was opened for (by id in the address), as a picker shows them. */
export const useBidderRef = (id: string | null) =>
  useSWR(id ? domainApi(`/bidders/${encodeURIComponent(id)}`) : null, fetchWith(bidderSchema));

const ifMatch = (etag: string) => ({ 'if-match': `"${etag}"` });

/** Everything that changes a case or what hangs off it, refreshing the views that show it. */
export function useLegalActions() {
  const { mutate } = useSWRConfig();
  /** The lists and the analytics: any change to a case may move it in them. */
  const refreshLists = () =>
    mutate(
      (key) => typeof key === 'string' && (key.startsWith(listPrefix) || key === analyticsKey),
    );
  /** A case changed by something that answered with another record (a note, a document). */
  const refreshCase = (id: string) =>
    Promise.all([mutate(caseKey(id)), mutate(timelineKey(id)), refreshLists()]);
  /** A case the server answered with: shown at once, and its timeline and the lists follow. */
  const settle = async (saved: z.infer<typeof caseSchema>) => {
    await mutate(caseKey(saved.id), saved, { revalidate: false });
    await Promise.all([mutate(timelineKey(saved.id)), refreshLists()]);
    return saved;
  };

  return {
    /** The case as it is now, e.g. after someone else changed it; the page shows it too. */
    fetch: async (id: string) => {
      const fresh = await apiRequest(caseKey(id), { schema: caseSchema });
      await mutate(caseKey(id), fresh, { revalidate: false });
      return fresh;
    },
    create: async (body: CaseBody) =>
      settle(await apiRequest(domainApi('/cases'), { method: 'POST', body, schema: caseSchema })),
    update: async (legalCase: { id: string; etag: string }, changes: CaseUpdate) =>
      settle(
        await apiRequest(caseKey(legalCase.id), {
          method: 'PUT',
          body: changes,
          headers: ifMatch(legalCase.etag),
          schema: caseSchema,
        }),
      ),
    remove: async (legalCase: { id: string; etag: string }) => {
      await apiRequest(caseKey(legalCase.id), {
        method: 'DELETE',
        headers: ifMatch(legalCase.etag),
      });
      await mutate(caseKey(legalCase.id), undefined, { revalidate: false });
      await refreshLists();
    },
    changeStatus: async (id: string, change: StatusChange) =>
      settle(
        await apiRequest(`${caseKey(id)}/status`, {
          method: 'POST',
          body: change,
          schema: caseSchema,
        }),
      ),
    decide: async (id: string, decision: ApprovalDecision) =>
      settle(
        await apiRequest(`${caseKey(id)}/approval`, {
          method: 'POST',
          body: decision,
          schema: caseSchema,
        }),
      ),
    recordPayment: async (id: string, payment: SettlementPaymentInput) =>
      settle(
        await apiRequest(`${caseKey(id)}/settlement-payment`, {
          method: 'POST',
          body: payment,
          schema: caseSchema,
        }),
      ),
    /** The non-paying bidder paid for the purchase: their strike is cleared. */
    recordPurchasePayment: async (id: string, payment: SettlementPaymentInput) =>
      settle(
        await apiRequest(`${caseKey(id)}/purchase-payment`, {
          method: 'POST',
          body: payment,
          schema: caseSchema,
        }),
      ),
    fileNonPayment: async (body: NonPaymentBody) =>
      settle(
        await apiRequest(domainApi('/cases/non-paying-bidder'), {
          method: 'POST',
          body,
          schema: caseSchema,
        }),
      ),
    setAutomation: async (id: string, enabled: boolean) =>
      settle(
        await apiRequest(domainApi('/workflows/automation/toggle'), {
          method: 'POST',
          body: { caseId: id, enabled },
          schema: caseSchema,
        }),
      ),
    addNote: async (id: string, text: string) => {
      const note = await apiRequest(notesKey(id), {
        method: 'POST',
        body: { text },
        schema: noteSchema,
      });
      // A note is a revision of the case: its ETag and last update move on.
      await Promise.all([mutate(notesKey(id)), refreshCase(id)]);
      return note;
    },
    addActionItem: async (id: string, body: ActionBody) => {
      const item = await apiRequest(actionsKey(id), {
        method: 'POST',
        body,
        schema: actionItemSchema,
      });
      await mutate(actionsKey(id));
      return item;
    },
    /** Shows the change at once (a ticked box stays ticked), then keeps the server's answer. */
    updateActionItem: async (id: string, actionId: string, changes: ActionUpdate) => {
      type Items = z.infer<typeof actionItemsSchema>;
      const replace = (current: Items | undefined, item: ActionItem) =>
        current && {
          actions: current.actions.map((candidate) =>
            candidate.id === item.id ? item : candidate,
          ),
        };
      await mutate(
        actionsKey(id),
        async (current: Items | undefined) =>
          replace(
            current,
            await apiRequest(`${actionsKey(id)}/${encodeURIComponent(actionId)}`, {
              method: 'PUT',
              body: changes,
              schema: actionItemSchema,
            }),
          ),
        {
          optimisticData: (current: Items | undefined): Items => ({
            actions: (current?.actions ?? []).map((candidate) =>
              candidate.id === actionId && changes.done !== undefined
                ? { ...candidate, done: changes.done }
                : candidate,
            ),
          }),
          rollbackOnError: true,
          revalidate: false,
        },
      );
    },
    upload: async (
      id: string,
      document: { file: File; name: string; type: DocumentType },
      onProgress: UploadProgress,
    ) => {
      const form = new FormData();
      form.set('name', document.name);
      form.set('type', document.type);
      form.set('file', document.file, document.file.name);
      const uploaded = caseDocumentsSchema.parse(
        await uploadForm(documentsKey(id), form, onProgress),
      );
      await Promise.all([mutate(documentsKey(id)), refreshCase(id)]);
      return uploaded.documents;
    },
    /** A link that downloads the file for a few minutes, without the token. */
    documentLink: (id: string, documentId: string) =>
      apiRequest(`${documentKey(id, documentId)}/link`, { schema: documentLinkSchema }),
    removeDocument: async (id: string, documentId: string) => {
      await apiRequest(documentKey(id, documentId), { method: 'DELETE' });
      await Promise.all([mutate(documentsKey(id)), refreshCase(id)]);
    },
  };
}
