import { makeStyles, Tab, TabList, Title2, tokens } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';

export interface RoutedTab {
  /** The tab's address segment, e.g. `faqs` in /help/faqs. */
  id: string;
  label: string;
  render(): ReactNode;
}

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  header: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalL,
    flexWrap: 'wrap',
  },
  title: { margin: 0 },
  scrollable: { overflowX: 'auto' },
});

/**
 * A page of tabs whose selection is the address (`{base}/{tab}`), so back, reload and bookmarks
 * keep the tab. The route's parameter is `tab`; a missing or unknown tab redirects to the index
 * tab's address, or else to the first tab.
 */
export function RoutedTabsPage({
  title,
  base,
  label,
  tabs,
  indexTab,
  scrollableTabs,
  keepMounted,
  actions,
  notice,
  children,
}: {
  title: string;
  /** The page's address, e.g. `/help`. */
  base: string;
  /** The accessible name of the tab list. */
  label: string;
  tabs: RoutedTab[];
  /** The tab shown at the base address itself, without a segment. */
  indexTab?: string;
  /** For tab rows wider than a phone: the row scrolls instead of widening the page. */
  scrollableTabs?: boolean;
  /**
   * Tabs that stay mounted, hidden, while another shows (e.g. ones holding unsaved edits). Given
   * at all, every tab's content sits in a panel of its own, so none remounts when it changes.
   */
  keepMounted?: string[];
  /** Beside the title, e.g. the page's buttons. */
  actions?: ReactNode;
  /** Between the tabs and the tab's content. */
  notice?: ReactNode;
  /** After the tab's content, e.g. the page's dialogs. */
  children?: ReactNode;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { tab = indexTab } = useParams();
  const current = tabs.find((candidate) => candidate.id === tab);
  if (!current) {
    return <Navigate to={indexTab ? base : `${base}/${tabs[0]?.id ?? ''}`} replace />;
  }
  const heading = (
    <Title2 as="h1" className={styles.title}>
      {title}
    </Title2>
  );
  return (
    <div className={styles.page}>
      {actions ? (
        <div className={styles.header}>
          {heading}
          {actions}
        </div>
      ) : (
        heading
      )}
      <TabList
        className={scrollableTabs ? styles.scrollable : undefined}
        selectedValue={current.id}
        onTabSelect={(_, data) => {
          const id = String(data.value);
          navigate({ pathname: id === indexTab ? base : `${base}/${id}`, search });
        }}
        aria-label={label}
      >
        {tabs.map((candidate) => (
          <Tab key={candidate.id} value={candidate.id}>
            {candidate.label}
          </Tab>
        ))}
      </TabList>
      {notice}
      {keepMounted
        ? tabs
            .filter((panel) => panel.id === current.id || keepMounted.includes(panel.id))
            .map((panel) => (
              <div key={panel.id} hidden={panel.id !== current.id}>
                {panel.render()}
              </div>
            ))
        : current.render()}
      {children}
    </div>
  );
}
