import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  makeStyles,
  mergeClasses,
  MessageBar,
  MessageBarBody,
  Tab,
  TabList,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular, DocumentRegular } from '@fluentui/react-icons';
import { MAX_UPLOAD_TOTAL_BYTES, UPLOAD_MESSAGES } from '@contracts/uploads/uploads.schema';
import { useEffect, useRef, useState } from 'react';
import type { Location } from 'react-router';
import { ImportHandoffPanel } from '../../../components/ImportHandoffPanel';
import { useCan } from '../../../lib/auth-store';
import { downloadText } from '../../../lib/download';
import { useFeatureSlots } from '../../../lib/feature-slots';
import { LeaveGuard } from '../../../lib/leave-guard';
import { needsPermission } from '../../../lib/permission-text';
import { useImportHandoff } from '../../../lib/use-import-handoff';
import { useBidderActions } from '../api/bidders';
import { bidderImportCalls, useBidderImportStatus } from '../api/import-upload';

const ACCEPT = '.csv,.xlsx,.xls,.json';
const TEMPLATE =
  'bidderId,firstName,lastName,email,phone,street,city,state,zip,country,status,preferredCategories,totalAuctionsBid,totalLotsBid,wins,totalWinAmount,paymentsOnTime,paymentsLate,avgDaysToPay,disputes,lastAuction\n' +
  'B-100001,Jane,Doe,jane.doe@example.com,+1 617 555 0100,1 Main Street,Boston,MA,02110,USA,Active,Art;Jewelry,4,18,5,12500,5,0,3,0,2026-09-14\n';

const useStyles = makeStyles({
  surface: { maxWidth: '760px', width: '100%' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minHeight: '320px',
    '& > *': { flexShrink: 0 },
  },
  drop: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingVerticalXXL,
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorNeutralStroke1}`,
    textAlign: 'center',
  },
  dragging: {
    border: `${tokens.strokeWidthThick} dashed ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorBrandBackground2,
  },
  files: { margin: 0, paddingInlineStart: tokens.spacingHorizontalL },
  muted: { color: tokens.colorNeutralForeground3 },
});

const sizeOf = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/** While the files are on their way, any move away counts, the dialog's own address included. */
const anyMove = (current: Location, next: Location) =>
  current.pathname !== next.pathname || current.search !== next.search;

/**
 * Import Bidders: from a connected bidding platform, or files handed to the Data Processing
 * Center (sent to storage with progress, their columns checked, processed by the worker), with
 * the figures here and a link to the upload, where it can be re-run or undone.
 */
export function ImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const styles = useStyles();
  const actions = useBidderActions();
  const input = useRef<HTMLInputElement>(null);
  const can = useCan();
  const { BidderPlatformImport } = useFeatureSlots();
  const [tab, setTab] = useState<'platform' | 'file'>('file');
  const [files, setFiles] = useState<File[]>([]);
  const [dragging, setDragging] = useState(false);
  const handoff = useImportHandoff(bidderImportCalls);
  const { state } = handoff;
  const queued = state.step === 'queued' ? state.upload.id : null;
  const status = useBidderImportStatus(queued);
  const done = queued !== null && status.data !== undefined && status.data.status !== 'processing';
  const working =
    state.step === 'sending' || state.step === 'checking' || state.step === 'starting';
  const busy = working || state.step === 'mapping' || state.step === 'queued';
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const tooLarge = total > MAX_UPLOAD_TOTAL_BYTES;
  const { refreshLists } = actions;

  // The bidders it added show in the lists as soon as it is done.
  useEffect(() => {
    if (done) void refreshLists();
  }, [done, refreshLists]);

  const choose = (chosen: FileList | null) => {
    setFiles(chosen ? [...chosen] : []);
    handoff.reset();
  };
  const send = async () => {
    await handoff.send(files);
    if (input.current) input.current.value = '';
  };
  const close = () => {
    if (working) return;
    // Waiting for its mapping, the upload would be left half-done: closing cancels it.
    if (state.step === 'mapping') void handoff.cancel();
    setFiles([]);
    handoff.reset();
    onClose();
  };

  const fileTab = (
    <>
      {busy ? null : (
        <>
          <div
            className={mergeClasses(styles.drop, dragging && styles.dragging)}
            onDragOver={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={(event) => {
              event.preventDefault();
              setDragging(false);
              choose(event.dataTransfer.files);
            }}
          >
            <DocumentRegular fontSize={32} aria-hidden="true" />
            <Body1>Drop files here, or</Body1>
            <Field
              label="Choose files to import"
              hint="Accepted: .csv, .xlsx, .xls, .json. Up to 100MB in all."
            >
              <input
                ref={input}
                type="file"
                accept={ACCEPT}
                multiple
                onChange={(event) => choose(event.target.files)}
              />
            </Field>
            <Button
              appearance="transparent"
              size="small"
              icon={<ArrowDownloadRegular />}
              onClick={() => downloadText('bidders-template.csv', TEMPLATE)}
            >
              Download a CSV template
            </Button>
          </div>
          {files.length ? (
            <ul className={styles.files} aria-label="Files chosen">
              {files.map((file) => (
                <li key={file.name}>
                  {file.name} <span className={styles.muted}>({sizeOf(file.size)})</span>
                </li>
              ))}
            </ul>
          ) : null}
          {tooLarge ? (
            <MessageBar intent="error">
              <MessageBarBody>{UPLOAD_MESSAGES.tooLarge}</MessageBarBody>
            </MessageBar>
          ) : null}
        </>
      )}
      <ImportHandoffPanel
        handoff={handoff}
        status={status.data}
        words={{ noun: 'bidder', duplicates: 'Already on file' }}
      />
    </>
  );

  return (
    <>
      <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
        <DialogSurface className={styles.surface}>
          <DialogBody>
            <DialogTitle>Import Bidders</DialogTitle>
            <DialogContent className={styles.content}>
              <TabList
                selectedValue={tab}
                disabled={busy}
                onTabSelect={(_, data) => setTab(data.value as 'platform' | 'file')}
              >
                <Tab value="platform">Platform Import</Tab>
                <Tab value="file">File Upload</Tab>
              </TabList>
              {tab === 'platform' ? (
                BidderPlatformImport && can('data:import') ? (
                  <BidderPlatformImport onImported={() => void actions.refreshLists()} />
                ) : (
                  <MessageBar intent="info">
                    <MessageBarBody>{needsPermission('data:import')}</MessageBarBody>
                  </MessageBar>
                )
              ) : (
                fileTab
              )}
            </DialogContent>
            <DialogActions>
              {state.step === 'sending' || state.step === 'mapping' ? (
                <Button onClick={() => void handoff.cancel()}>Cancel import</Button>
              ) : (
                <Button onClick={close} disabled={working}>
                  {done ? 'Done' : state.step === 'queued' ? 'Close' : 'Cancel'}
                </Button>
              )}
              {tab === 'file' && state.step === 'mapping' ? (
                <Button
                  appearance="primary"
                  disabled={!handoff.ready}
                  onClick={() => void handoff.start()}
                >
                  Start processing
                </Button>
              ) : tab === 'file' && state.step !== 'queued' ? (
                <Button
                  appearance="primary"
                  disabled={!files.length || working || tooLarge}
                  onClick={() => void send()}
                >
                  {working ? 'Uploading...' : 'Upload and Import'}
                </Button>
              ) : null}
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
      <LeaveGuard
        active={handoff.sending}
        title="Leave while uploading?"
        message="Your files are still being uploaded. If you leave now, the import is cancelled and nothing is kept."
        leaveLabel="Leave and cancel import"
        busyLabel="Cancelling..."
        onLeave={handoff.cancel}
        blocks={anyMove}
      />
    </>
  );
}
