import { Input, makeStyles } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons';
import { useState, type ReactNode } from 'react';
import { useNavigate, useParams } from 'react-router';
import { RoutedTabsPage } from '../../../components/RoutedTabsPage';
import { ContactSupportTab } from './ContactSupportTab';
import { FaqTab } from './FaqTab';
import { GuidesTab } from './GuidesTab';

const useStyles = makeStyles({
  search: { width: '100%', maxWidth: '420px' },
});

export default function HelpPage({
  systemStatus,
}: {
  /** How the services are doing, shown beside the support form. */
  systemStatus: ReactNode;
}) {
  const styles = useStyles();
  const navigate = useNavigate();
  const { tab } = useParams();
  const [query, setQuery] = useState('');
  const tabs = [
    {
      id: 'faqs',
      label: 'FAQs',
      render: () => <FaqTab query={query} onClear={() => setQuery('')} />,
    },
    { id: 'guides', label: 'Guides', render: () => <GuidesTab /> },
    {
      id: 'contact',
      label: 'Contact Support',
      render: () => <ContactSupportTab systemStatus={systemStatus} />,
    },
  ];
  return (
    <RoutedTabsPage
      title="Help & Documentation"
      base="/help"
      label="Help sections"
      tabs={tabs}
      scrollableTabs
      actions={
        <Input
          className={styles.search}
          contentBefore={<SearchRegular />}
          placeholder="Search frequently asked questions"
          aria-label="Search frequently asked questions"
          value={query}
          onChange={(_, data) => {
            setQuery(data.value);
            if (tab !== 'faqs') navigate('/help/faqs');
          }}
        />
      }
    />
  );
}
