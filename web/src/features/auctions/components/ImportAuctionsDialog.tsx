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
  Tab,
  TabList,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useCan } from '../../../lib/auth-store';
import { useFeatureSlots } from '../../../lib/feature-slots';
import { needsPermission } from '../../../lib/permission-text';

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
 * Import Auctions: from a connected bidding platform (with its lots), or from a catalogue file
 * (create the auction, then import its catalogue on its Lots tab).
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
  const navigate = useNavigate();
  const { AuctionPlatformImport } = useFeatureSlots();
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
              AuctionPlatformImport && can('auctions:import') ? (
                <AuctionPlatformImport
                  onImported={(auctionId) => {
                    onClose();
                    navigate(`/auctions/${auctionId}`);
                  }}
                />
              ) : (
                <MessageBar intent="info">
                  <MessageBarBody>{needsPermission('auctions:import')}</MessageBarBody>
                </MessageBar>
              )
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
            ) : null}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
