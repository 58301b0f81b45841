import {
  Button,
  Caption1,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Skeleton,
  SkeletonItem,
  Tab,
  TabList,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { ArrowLeftRegular, DeleteRegular, EditRegular } from '@fluentui/react-icons';
import { caseTypeLabels } from '@contracts/legal/legal.schema';
import { useState } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { PermittedButton } from '../../../components/PermittedButton';
import { ApiError, messageOf } from '../../../lib/api-client';
import { useCan } from '../../../lib/auth-store';
import { useMediaQuery } from '../../../lib/use-media-query';
import { useNotify } from '../../../lib/toast';
import { useCase, useLegalActions } from '../api/legal';
import { ActionsTab } from './ActionsTab';
import { CaseStatusBadge, formatDate, PriorityBadge } from './case-style';
import { DocumentsTab } from './DocumentsTab';
import { EditCasePanel } from './EditCasePanel';
import { NotesTab } from './NotesTab';
import { OverviewTab } from './OverviewTab';
import { TimelineTab } from './TimelineTab';
import { WorkflowTab } from './WorkflowTab';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  back: { alignSelf: 'flex-start', marginInlineStart: `calc(-1 * ${tokens.spacingHorizontalS})` },
  header: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    flexWrap: 'wrap',
  },
  heading: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  titleRow: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flexWrap: 'wrap',
  },
  title: { margin: 0, overflowWrap: 'anywhere' },
  meta: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  tabs: { overflowX: 'auto' },
});

const sections = [
  ['overview', 'Overview'],
  ['workflow', 'Workflow'],
  ['timeline', 'Timeline'],
  ['documents', 'Documents'],
  ['actions', 'Actions'],
  ['notes', 'Notes'],
] as const;
type Section = (typeof sections)[number][0];

const isSection = (value: string): value is Section =>
  sections.some(([candidate]) => candidate === value);

/**
 * Case Details: the header with the case's badges, and the tabs Overview (`/legal/cases/{id}`),
 * Workflow, Timeline, Documents, Actions and Notes (`/legal/cases/{id}/{tab}`). Edit Case is a
 * panel over the overview at `/legal/cases/{id}/edit`.
 */
export default function CaseDetailPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const location = useLocation();
  const notify = useNotify();
  const can = useCan();
  const phone = useMediaQuery('(max-width: 640px)');
  const actions = useLegalActions();
  const { caseId = '', tab = 'overview' } = useParams();
  const { data: legalCase, error, mutate } = useCase(caseId);
  const [deleting, setDeleting] = useState(false);
  const from = (location.state as { from?: string } | null)?.from;
  const keepFrom = from ? { state: { from } } : undefined;
  const base = `/legal/cases/${caseId}`;
  const editing = tab === 'edit';
  const section: Section | null = editing ? 'overview' : isSection(tab) ? tab : null;

  if (!section) return <Navigate to={base} replace state={location.state} />;

  const backLabel = from?.startsWith('/legal/active') ? 'Active Cases' : 'All Cases';
  const goBack = () => navigate(from ?? '/legal/cases');

  if (error && !legalCase) {
    const missing = error instanceof ApiError && error.status === 404;
    return (
      <div className={styles.page}>
        <Title2 as="h1">{missing ? 'Case not found' : 'Case Details'}</Title2>
        <MessageBar intent={missing ? 'warning' : 'error'}>
          <MessageBarBody>
            {missing
              ? 'There is no case at this address in your account. It may have been deleted.'
              : `The case could not be loaded: ${messageOf(error)}`}
          </MessageBarBody>
          <MessageBarActions>
            {missing ? null : <Button onClick={() => void mutate()}>Try again</Button>}
            <Button onClick={() => navigate('/legal/cases')}>Go to Legal Case Management</Button>
          </MessageBarActions>
        </MessageBar>
      </div>
    );
  }

  return (
    <div className={styles.page}>
      <Button
        className={styles.back}
        appearance="subtle"
        icon={<ArrowLeftRegular />}
        onClick={goBack}
      >
        {backLabel}
      </Button>
      {!legalCase ? (
        <Skeleton aria-label="Loading case">
          <SkeletonItem size={32} style={{ maxWidth: 420 }} />
          <SkeletonItem size={16} style={{ maxWidth: 280, marginTop: 8 }} />
        </Skeleton>
      ) : (
        <>
          <header className={styles.header}>
            <div className={styles.heading}>
              <div className={styles.titleRow}>
                <Title2 as="h1" className={styles.title}>
                  Case Details: {legalCase.caseNumber}
                </Title2>
                <PriorityBadge priority={legalCase.priority} />
                <CaseStatusBadge status={legalCase.status} />
              </div>
              <Caption1 className={styles.meta}>
                {legalCase.title} · {caseTypeLabels[legalCase.caseType]} · Filed{' '}
                {formatDate(legalCase.createdAt)}
              </Caption1>
            </div>
            <div className={styles.actions}>
              <PermittedButton
                permission="legal:edit"
                icon={<EditRegular />}
                onClick={() =>
                  navigate(`${base}/edit`, { state: { ...keepFrom?.state, openedFromPage: true } })
                }
              >
                Edit Case
              </PermittedButton>
              {can('legal:delete') ? (
                <Button icon={<DeleteRegular />} onClick={() => setDeleting(true)}>
                  Delete
                </Button>
              ) : null}
            </div>
          </header>
          <TabList
            className={styles.tabs}
            size={phone ? 'small' : 'medium'}
            selectedValue={section}
            aria-label="Case sections"
            onTabSelect={(_, data) =>
              navigate(data.value === 'overview' ? base : `${base}/${String(data.value)}`, {
                ...keepFrom,
              })
            }
          >
            {sections.map(([value, label]) => (
              <Tab key={value} value={value}>
                {label}
              </Tab>
            ))}
          </TabList>
          {section === 'overview' ? <OverviewTab legalCase={legalCase} /> : null}
          {section === 'workflow' ? <WorkflowTab legalCase={legalCase} /> : null}
          {section === 'timeline' ? <TimelineTab caseId={legalCase.id} /> : null}
          {section === 'documents' ? <DocumentsTab caseId={legalCase.id} /> : null}
          {section === 'actions' ? <ActionsTab caseId={legalCase.id} /> : null}
          {section === 'notes' ? <NotesTab caseId={legalCase.id} /> : null}
          <EditCasePanel
            legalCase={editing && can('legal:edit') ? legalCase : null}
            onClose={() => {
              // Opened from this page: Back would return to it, so close the same way.
              if ((location.state as { openedFromPage?: boolean } | null)?.openedFromPage)
                navigate(-1);
              else navigate(base, { replace: true, ...keepFrom });
            }}
          />
          <ConfirmDialog
            open={deleting}
            title={`Delete ${legalCase.caseNumber}?`}
            confirmLabel="Delete Case"
            busyLabel="Deleting..."
            danger
            failureTitle="The case was not deleted"
            onClose={() => setDeleting(false)}
            onConfirm={async () => {
              await actions.remove(legalCase);
              notify.success('Case deleted', `${legalCase.caseNumber} and its record are gone.`);
              navigate(from ?? '/legal/cases', { replace: true });
            }}
          >
            The case, its timeline, notes and action items are deleted for everyone. Its case number
            is not used again.
          </ConfirmDialog>
        </>
      )}
    </div>
  );
}
