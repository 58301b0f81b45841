import {
  Body1,
  Button,
  Caption1,
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
  MessageBarTitle,
  ProgressBar,
  Tab,
  TabList,
  Text,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular, DocumentRegular } from '@fluentui/react-icons';
import type { ImportResult } from '@contracts/bidders/bidders.schema';
import { useRef, useState } from 'react';
import { useCan } from '../../../lib/auth-store';
import { downloadText } from '../../../lib/download';
import { useFeatureSlots } from '../../../lib/feature-slots';
import { needsPermission } from '../../../lib/permission-text';
import { useAction } from '../../../lib/use-action';
import { useBidderActions } from '../api/bidders';
import { countOf } from '../../../lib/plural';

const MAX_BYTES = 10 * 1024 * 1024;
const ACCEPT = '.csv,.xlsx,.xls,.json';
const TEMPLATE =
  'bidderId,firstName,lastName,email,phone,street,city,state,zip,country,status,preferredCategories,totalAuctionsBid,totalLotsBid,wins,totalWinAmount,paymentsOnTime,paymentsLate,avgDaysToPay,disputes,lastAuction\n' +
  'B-100001,Jane,Doe,jane.doe@example.com,+1 617 555 0100,1 Main Street,Boston,MA,02110,USA,Active,Art;Jewelry,4,18,5,12500,5,0,3,0,2026-09-14\n';

const useStyles = makeStyles({
  surface: { maxWidth: '640px', width: '100%' },
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    minHeight: '320px',
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
  summary: {
    display: 'grid',
    gridTemplateColumns: 'repeat(4, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalS,
  },
  figure: {
    display: 'flex',
    flexDirection: 'column',
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
  },
  value: { fontSize: tokens.fontSizeBase500, fontWeight: tokens.fontWeightSemibold },
  errors: {
    maxHeight: '180px',
    overflowY: 'auto',
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalL,
    fontSize: tokens.fontSizeBase200,
  },
});

const sizeOf = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${(bytes / 1024 / 1024).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;

function Result({ result }: { result: ImportResult }) {
  const styles = useStyles();
  const figures = [
    ['Processed', result.totalProcessed],
    ['Added', result.successful],
    ['Failed', result.failed],
    ['Duplicates', result.duplicates],
  ] as const;
  return (
    <>
      <MessageBar intent={result.failed ? 'warning' : 'success'}>
        <MessageBarBody>
          <MessageBarTitle>Import finished</MessageBarTitle>
          {countOf(result.successful, 'bidder')} added and scored.
        </MessageBarBody>
      </MessageBar>
      <div className={styles.summary}>
        {figures.map(([label, value]) => (
          <div key={label} className={styles.figure}>
            <Caption1 className={styles.muted}>{label}</Caption1>
            <span className={styles.value}>{value.toLocaleString()}</span>
          </div>
        ))}
      </div>
      {result.errors.length ? (
        <>
          <Text weight="semibold">Rows not imported</Text>
          <ul className={styles.errors} aria-label="Rows not imported">
            {result.errors.map((problem) => (
              <li key={`${problem.row}-${problem.field}`}>
                Row {problem.row}, {problem.field}: {problem.message}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}

/** Import Bidders: from a connected bidding platform, or a file upload with progress and a summary. */
export function ImportDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const styles = useStyles();
  const actions = useBidderActions();
  const input = useRef<HTMLInputElement>(null);
  const can = useCan();
  const { BidderPlatformImport } = useFeatureSlots();
  const [tab, setTab] = useState<'platform' | 'file'>('file');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState(0);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [dragging, setDragging] = useState(false);
  const upload = useAction(async () => {
    setProgress(0);
    setResult(await actions.importFiles(files, setProgress));
    setFiles([]);
    if (input.current) input.current.value = '';
  });
  const uploading = upload.busy;
  const total = files.reduce((sum, file) => sum + file.size, 0);
  const tooLarge = total > MAX_BYTES;

  const choose = (chosen: FileList | null) => {
    setFiles(chosen ? [...chosen] : []);
    setResult(null);
    upload.reset();
  };
  const close = () => {
    if (uploading) return;
    setFiles([]);
    setResult(null);
    upload.reset();
    onClose();
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Import Bidders</DialogTitle>
          <DialogContent className={styles.content}>
            <TabList
              selectedValue={tab}
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
                    hint="Accepted: .csv, .xlsx, .xls, .json. Maximum 10MB in all."
                  >
                    <input
                      ref={input}
                      type="file"
                      accept={ACCEPT}
                      multiple
                      disabled={uploading}
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
                    <MessageBarBody>
                      These files are {sizeOf(total)}; the limit is 10MB.
                    </MessageBarBody>
                  </MessageBar>
                ) : null}
                {uploading ? (
                  <Field
                    label={
                      progress < 1
                        ? `Uploading... ${Math.round(progress * 100)}%`
                        : 'Checking, scoring and saving bidders...'
                    }
                    validationState="none"
                  >
                    <ProgressBar value={progress < 1 ? progress : undefined} thickness="large" />
                  </Field>
                ) : null}
                {upload.error ? (
                  <MessageBar intent="error">
                    <MessageBarBody>{upload.error}</MessageBarBody>
                  </MessageBar>
                ) : null}
                {result ? <Result result={result} /> : null}
              </>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={uploading}>
              {result ? 'Done' : 'Cancel'}
            </Button>
            {tab === 'file' ? (
              <Button
                appearance="primary"
                disabled={!files.length || uploading || tooLarge}
                onClick={() => void upload.run()}
              >
                {uploading ? 'Uploading...' : 'Upload and Import'}
              </Button>
            ) : null}
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
