import {
  Button,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
} from '@fluentui/react-components';
import {
  ArrowDownloadRegular,
  EditRegular,
  EyeRegular,
  LockClosedRegular,
  MoreHorizontalRegular,
} from '@fluentui/react-icons';
import type { LegalCase } from '@contracts/legal/legal.schema';
import { useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { needsPermission } from '../../../lib/permission-text';
import { useNotify } from '../../../lib/toast';
import { exportCaseDocuments } from '../api/documents-export';
import { useLegalActions } from '../api/legal';
import { ReasonDialog } from './ReasonDialog';

export type CaseAction = 'view' | 'edit' | 'close' | 'export';

/** A case may be closed from the list only where its workflow allows it. */
export const canClose = (legalCase: LegalCase) =>
  legalCase.allowedTransitions.some((transition) => transition.to === 'CLOSED');

/**
 * A case's Actions menu: View Details, Edit Case, Export Documents (a zip of all its files) and,
 * where the workflow allows, Close Case.
 */
export function CaseMenu({
  legalCase,
  onAction,
}: {
  legalCase: LegalCase;
  onAction(action: CaseAction, legalCase: LegalCase): void;
}) {
  const can = useCan();
  const mayEdit = can('legal:edit');
  const mayMove = can('legal:workflow');
  const mayExport = can('legal:documents');
  return (
    <Menu positioning="below-end">
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="subtle"
          icon={<MoreHorizontalRegular />}
          aria-label={`Actions for ${legalCase.caseNumber}`}
          onClick={(event) => event.stopPropagation()}
          onKeyDown={(event) => event.stopPropagation()}
        />
      </MenuTrigger>
      <MenuPopover onClick={(event) => event.stopPropagation()}>
        <MenuList>
          <MenuItem icon={<EyeRegular />} onClick={() => onAction('view', legalCase)}>
            View Details
          </MenuItem>
          <MenuItem
            icon={<EditRegular />}
            disabled={!mayEdit}
            subText={mayEdit ? undefined : needsPermission('legal:edit')}
            onClick={() => onAction('edit', legalCase)}
          >
            Edit Case
          </MenuItem>
          <MenuItem
            icon={<ArrowDownloadRegular />}
            disabled={!mayExport}
            subText={mayExport ? undefined : needsPermission('legal:documents')}
            onClick={() => onAction('export', legalCase)}
          >
            Export Documents
          </MenuItem>
          {canClose(legalCase) ? (
            <MenuItem
              icon={<LockClosedRegular />}
              disabled={!mayMove}
              subText={mayMove ? undefined : needsPermission('legal:workflow')}
              onClick={() => onAction('close', legalCase)}
            >
              Close Case
            </MenuItem>
          ) : null}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}

/**
 * What the lists do with a case's menu: open it, open its editor, download its documents as a
 * zip, or close it after asking why.
 * The detail's back button returns to the very list (tab, filters and page) it was opened from.
 */
export function useCaseMenuActions() {
  const navigate = useNavigate();
  const location = useLocation();
  const notify = useNotify();
  const actions = useLegalActions();
  const [closing, setClosing] = useState<LegalCase | null>(null);
  const state = { from: `${location.pathname}${location.search}` };

  const exportDocuments = async (legalCase: LegalCase) => {
    try {
      const fileName = await exportCaseDocuments(legalCase);
      notify.success('Documents exported', `${legalCase.caseNumber}: saved as ${fileName}.`);
    } catch (error) {
      // The service's own words, e.g. "This case has no documents to export".
      notify.error('The documents could not be exported', messageOf(error));
    }
  };

  const onAction = (action: CaseAction, legalCase: LegalCase) => {
    if (action === 'view') navigate(`/legal/cases/${legalCase.id}`, { state });
    else if (action === 'edit') navigate(`/legal/cases/${legalCase.id}/edit`, { state });
    else if (action === 'export') void exportDocuments(legalCase);
    else setClosing(legalCase);
  };
  const closeDialog = (
    <ReasonDialog
      open={closing !== null}
      title={`Close ${closing?.caseNumber ?? 'case'}?`}
      confirmLabel="Close Case"
      busyLabel="Closing..."
      failureTitle="The case was not closed"
      onClose={() => setClosing(null)}
      onConfirm={async (reason) => {
        if (!closing) return;
        const saved = await actions.changeStatus(closing.id, { to: 'CLOSED', reason });
        notify.success('Case closed', `${saved.caseNumber} is CLOSED.`);
      }}
    >
      {closing
        ? `${closing.caseNumber} moves from ${closing.status} to CLOSED. A closed case cannot move again.`
        : ''}
    </ReasonDialog>
  );
  return { onAction, closeDialog, from: state.from };
}
