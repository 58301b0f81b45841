import { Input, makeStyles, Tab, TabList, Title2, tokens } from '@fluentui/react-components';
import { SearchRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { ContactSupportTab } from './ContactSupportTab';
import { FaqTab } from './FaqTab';
import { GuidesTab } from './GuidesTab';

const useStyles = makeStyles({
  page: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  top: {
    display: 'flex',
    justifyContent: 'space-between',
    alignItems: 'center',
    gap: tokens.spacingHorizontalL,
    flexWrap: 'wrap',
  },
  title: { margin: 0 },
  search: { width: '100%', maxWidth: '420px' },
  tabs: { overflowX: 'auto' },
});

const tabs = [
  { id: 'faqs', label: 'FAQs' },
  { id: 'guides', label: 'Guides' },
  { id: 'contact', label: 'Contact Support' },
] as const;

export default function HelpPage() {
  const styles = useStyles();
  const navigate = useNavigate();
  const { tab } = useParams();
  const [query, setQuery] = useState('');
  const current = tabs.find((candidate) => candidate.id === tab);
  if (!current) return <Navigate to="/help/faqs" replace />;
  return (
    <div className={styles.page}>
      <div className={styles.top}>
        <Title2 as="h1" className={styles.title}>
          Help &amp; Documentation
        </Title2>
        <Input
          className={styles.search}
          contentBefore={<SearchRegular />}
          placeholder="Search frequently asked questions"
          aria-label="Search frequently asked questions"
          value={query}
          onChange={(_, data) => {
            setQuery(data.value);
            if (current.id !== 'faqs') navigate('/help/faqs');
          }}
        />
      </div>
      <TabList
        className={styles.tabs}
        selectedValue={current.id}
        onTabSelect={(_, data) => navigate(`/help/${String(data.value)}`)}
        aria-label="Help sections"
      >
        {tabs.map((candidate) => (
          <Tab key={candidate.id} value={candidate.id}>
            {candidate.label}
          </Tab>
        ))}
      </TabList>
      {current.id === 'faqs' ? <FaqTab query={query} onClear={() => setQuery('')} /> : null}
      {current.id === 'guides' ? <GuidesTab /> : null}
      {current.id === 'contact' ? <ContactSupportTab /> : null}
    </div>
  );
}
