import type { LegalCase } from '@contracts/legal/legal.schema';
import { domainApi } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/file-download';

/**
 * Downloads every document of a case as one zip, `{case number}-documents.zip`. Fails with the
 * service's message, e.g. "This case has no documents to export".
 */
export const exportCaseDocuments = (legalCase: Pick<LegalCase, 'id' | 'caseNumber'>) =>
  downloadFile(
    domainApi(`/cases/${encodeURIComponent(legalCase.id)}/documents/export`),
    `${legalCase.caseNumber}-documents.zip`,
  );
