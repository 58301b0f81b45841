import {
  Body1,
  Button,
  makeStyles,
  Tab,
  TabList,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, FlowRegular, MoneyOffRegular } from '@fluentui/react-icons';
import { useLocation, useNavigate } from 'react-router';
import { useCan } from '../../../lib/auth-store';
import { useMediaQuery } from '../../../lib/use-media-query';
import { AnalyticsTab } from './AnalyticsTab';
import { CaseListTab } from './CaseListTab';
import { NewCaseDialog } from './NewCaseDialog';
import { NonPaymentDialog } from './NonPaymentDialog';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  header: {
    display: 'flex',
    alignItems: 'flex-start',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    flexWrap: 'wrap',
  },
  heading: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  title: { margin: 0 },
  subtitle: { color: tokens.colorNeutralForeground2, maxWidth: '640px' },
  actions: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  tabs: { overflowX: 'auto' },
});

export const legalViews = ['cases', 'active', 'analytics'] as const;
export type LegalView = (typeof legalViews)[number];

const viewLabels: Record<LegalView, string> = {
  cases: 'All Cases',
  active: 'Active Cases',
  analytics: 'Analytics',
};

/**
 * Legal Case Management: All Cases (`/legal/cases`), Active Cases (`/legal/active`) and Analytics
 * (`/legal/analytics`). `/legal/cases/new` is File New Legal Case over the list it was opened from.
 */
export default function LegalPage({
  view: routeView,
  creating = false,
  reporting = false,
}: {
  /** The tab; absent at `/legal/cases/new`, which shows the list it was opened from. */
  view?: LegalView;
  creating?: boolean;
  /** Report Non-Payment (`/legal/cases/non-payment?bidder=`), over the list. */
  reporting?: boolean;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const location = useLocation();
  const can = useCan();
  const phone = useMediaQuery('(max-width: 640px)');
  const from = (location.state as { from?: string } | null)?.from;
  const fromView = legalViews.find((candidate) =>
    from?.startsWith(candidate === 'cases' ? '/legal/cases' : `/legal/${candidate}`),
  );
  const view = routeView ?? fromView ?? 'cases';

  const openCreate = () =>
    navigate('/legal/cases/new', { state: { from: `${location.pathname}${location.search}` } });
  const closeCreate = () => {
    // Back where it was opened from (so Back does not reopen it), or the list of every case.
    if (from) navigate(-1);
    else navigate('/legal/cases', { replace: true });
  };
  const openReport = () =>
    navigate('/legal/cases/non-payment', {
      state: { from: `${location.pathname}${location.search}` },
    });
  const reportFor = new URLSearchParams(location.search).get('bidder');
  const mayCreate = can('legal:create');
  const createButton = mayCreate ? (
    <Button appearance="primary" icon={<AddRegular />} onClick={openCreate}>
      File New Case
    </Button>
  ) : null;

  return (
    <div className={styles.page}>
      <div className={styles.header}>
        <div className={styles.heading}>
          <Title2 as="h1" className={styles.title}>
            Legal Case Management
          </Title2>
          <Body1 className={styles.subtitle}>
            Disputes and claims from your sales, moved through review, mediation and settlement with
            every step on record.
          </Body1>
        </div>
        <div className={styles.actions}>
          {can('legal:workflow') ? (
            <Button icon={<FlowRegular />} onClick={() => navigate('/legal/rules')}>
              Workflow Rules
            </Button>
          ) : null}
          {mayCreate ? (
            <Button icon={<MoneyOffRegular />} onClick={openReport}>
              Report Non-Payment
            </Button>
          ) : null}
          {createButton}
        </div>
      </div>
      <TabList
        className={styles.tabs}
        size={phone ? 'small' : 'medium'}
        selectedValue={view}
        aria-label="Legal sections"
        onTabSelect={(_, data) => {
          // The search and filters go along; the page and a status filter belong to the list.
          const next = new URLSearchParams(location.search);
          next.delete('page');
          if (data.value !== 'cases') next.delete('status');
          const search = data.value === 'analytics' ? '' : next.toString();
          navigate(`/legal/${String(data.value)}${search ? `?${search}` : ''}`);
        }}
      >
        {legalViews.map((candidate) => (
          <Tab key={candidate} value={candidate}>
            {viewLabels[candidate]}
          </Tab>
        ))}
      </TabList>
      {view === 'analytics' ? (
        <AnalyticsTab />
      ) : (
        <CaseListTab
          key={view}
          mode={view === 'active' ? 'active' : 'all'}
          emptyAction={createButton}
        />
      )}
      {mayCreate ? <NewCaseDialog open={creating} onClose={closeCreate} /> : null}
      {mayCreate ? (
        <NonPaymentDialog
          key={reportFor ?? ''}
          open={reporting}
          bidderId={reportFor}
          onClose={closeCreate}
        />
      ) : null}
    </div>
  );
}
