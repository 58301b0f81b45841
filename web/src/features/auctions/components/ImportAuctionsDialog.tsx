import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  makeStyles,
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  Tab,
  TabList,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { useCan } from '../../../lib/auth-store';

const useStyles = makeStyles({
  surface: { maxWidth: '600px', width: '100%' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minHeight: '220px',
    '& > *': { flexShrink: 0 },
  },
  steps: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
  },
});

/**
 * Import Auctions. Bidding platforms cannot be connected yet (that comes with integrations), so
 * the platform tab says so plainly; the file route is real: create the auction, then import its
 * catalogue on its Lots tab.
 */
export function ImportAuctionsDialog({
  open,
  onClose,
  onCreate,
}: {
  open: boolean;
  onClose(): void;
  onCreate(): void;
}) {
  const styles = useStyles();
  const can = useCan();
  const [tab, setTab] = useState<'platform' | 'file'>('platform');
  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && onClose()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Import Auctions</DialogTitle>
          <DialogContent className={styles.content}>
            <TabList
              selectedValue={tab}
              onTabSelect={(_, data) => setTab(data.value as 'platform' | 'file')}
            >
              <Tab value="platform">Platform Import</Tab>
              <Tab value="file">File Upload</Tab>
            </TabList>
            {tab === 'platform' ? (
              <MessageBar intent="info" layout="multiline">
                <MessageBarBody>
                  <MessageBarTitle>No Platforms Connected</MessageBarTitle>
                  Connecting bidding platforms such as ProxyBid or Invaluable arrives with
                  integrations in Account Settings. Until then, create the auction here and import
                  its catalogue from a file.
                </MessageBarBody>
              </MessageBar>
            ) : (
              <>
                <Body1>
                  An auction&apos;s catalogue comes in from a CSV or Excel (.xlsx) file:
                </Body1>
                <ol className={styles.steps}>
                  <li>
                    <Body1>Create the auction (it starts as a Draft).</Body1>
                  </li>
                  <li>
                    <Body1>
                      On its Lots tab, choose Import Catalogue and pick your file. Each row is a
                      lot: lot number, title, description, category, estimates, reserve and
                      consignor, with amounts in whole currency units.
                    </Body1>
                  </li>
                  <li>
                    <Body1>
                      Rows with a problem are listed with their row number and field; the others are
                      imported.
                    </Body1>
                  </li>
                </ol>
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>Close</Button>
            {tab === 'file' && can('auctions:create') ? (
              <Button appearance="primary" onClick={onCreate}>
                Create Auction
              </Button>
            ) : tab === 'platform' ? (
              <Button appearance="primary" onClick={() => setTab('file')}>
                Use File Upload
              </Button>
            ) : null}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
