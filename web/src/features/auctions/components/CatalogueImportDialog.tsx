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
  MessageBar,
  MessageBarBody,
  MessageBarTitle,
  ProgressBar,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  tokens,
} from '@fluentui/react-components';
import { ArrowDownloadRegular } from '@fluentui/react-icons';
import type { Auction } from '@contracts/auctions/auctions.schema';
import { LOT_IMPORT_MAX_ROWS, type LotImportResult } from '@contracts/auctions/lots/lots.schema';
import { MAX_UPLOAD_TOTAL_BYTES, UPLOAD_MESSAGES } from '@contracts/uploads/uploads.schema';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { Location } from 'react-router';
import { ImportHandoffPanel } from '../../../components/ImportHandoffPanel';
import { useCan } from '../../../lib/auth-store';
import { downloadText } from '../../../lib/download';
import { LeaveGuard } from '../../../lib/leave-guard';
import { countOf } from '../../../lib/plural';
import { useAction } from '../../../lib/use-action';
import { useImportHandoff } from '../../../lib/use-import-handoff';
import { useAuctionActions } from '../api/auctions';
import { catalogueImportCalls, useCatalogueImportStatus } from '../api/catalogue-upload';

const MAX_BYTES = 10 * 1024 * 1024;
const ACCEPT = '.csv,.xlsx';
const TEMPLATE =
  'lotNumber,title,description,category,estimateLow,estimateHigh,reserve,consignorName,consignorContact\n' +
  '1,"Hudson River School landscape, oil on canvas","24 x 36 in., signed lower right",Art,4000,6000,3500,Estate of M. Carter,carter.estate@example.com\n' +
  '2,Georgian silver teapot,London 1792,Antiques,800,1200,,R. Alvarez,+1 617 555 0142\n';

const useStyles = makeStyles({
  surface: { maxWidth: '680px', width: '100%' },
  // Its children keep their height; the content scrolls instead of squeezing them.
  content: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  columns: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200 },
  muted: { color: tokens.colorNeutralForeground2 },
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(3, minmax(0, 1fr))',
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
  errors: { maxHeight: '240px', overflowY: 'auto' },
});

function Result({ result }: { result: LotImportResult }) {
  const styles = useStyles();
  const figures = [
    ['Added', result.imported],
    ['Updated', result.updated],
    ['Rows with problems', new Set(result.errors.map((problem) => problem.row)).size],
  ] as const;
  return (
    <>
      <MessageBar intent={result.errors.length ? 'warning' : 'success'}>
        <MessageBarBody>
          <MessageBarTitle>Import finished</MessageBarTitle>
          {countOf(result.imported, 'lot')} added and {countOf(result.updated, 'lot')} updated.
        </MessageBarBody>
      </MessageBar>
      <div className={styles.figures}>
        {figures.map(([label, value]) => (
          <div key={label} className={styles.figure}>
            <Caption1 className={styles.muted}>{label}</Caption1>
            <span className={styles.value}>{value.toLocaleString()}</span>
          </div>
        ))}
      </div>
      {result.errors.length ? (
        <div className={styles.errors} tabIndex={0} role="region" aria-label="Rows not imported">
          <Table size="small" aria-label="Rows not imported">
            <TableHeader>
              <TableRow>
                <TableHeaderCell style={{ width: '64px' }}>Row</TableHeaderCell>
                <TableHeaderCell style={{ width: '140px' }}>Field</TableHeaderCell>
                <TableHeaderCell>Problem</TableHeaderCell>
              </TableRow>
            </TableHeader>
            <TableBody>
              {result.errors.map((problem) => (
                <TableRow key={`${problem.row}-${problem.field}-${problem.message}`}>
                  <TableCell>{problem.row}</TableCell>
                  <TableCell>{problem.field}</TableCell>
                  <TableCell>{problem.message}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
    </>
  );
}

/**
 * Import Catalogue for someone who may edit the auction but not import data: the file is read
 * at once by the auction's own import (10 MB). Rows whose lot number is already in the auction
 * update that lot; each problem is listed with its row and field, and the other rows still go in.
 */
function DirectCatalogueImport({
  auction,
  open,
  onClose,
}: {
  auction: Auction;
  open: boolean;
  onClose(): void;
}) {
  const styles = useStyles();
  const actions = useAuctionActions();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState(0);
  const [result, setResult] = useState<LotImportResult | null>(null);
  const upload = useAction(async () => {
    if (!file) return;
    setProgress(0);
    setResult(await actions.importLots(auction.id, file, setProgress));
    setFile(null);
    if (input.current) input.current.value = '';
  });
  const tooLarge = (file?.size ?? 0) > MAX_BYTES;

  const close = () => {
    if (upload.busy) return;
    setFile(null);
    setResult(null);
    upload.reset();
    onClose();
  };

  return (
    <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
      <DialogSurface className={styles.surface}>
        <DialogBody>
          <DialogTitle>Import Catalogue</DialogTitle>
          <DialogContent className={styles.content}>
            <Body1>
              One row per lot, with a heading row naming the columns. Amounts are in whole{' '}
              {auction.currency} ({auction.currencySymbol}); a lot number already in this auction
              updates that lot. Up to {LOT_IMPORT_MAX_ROWS.toLocaleString()} rows.
            </Body1>
            <Caption1 className={styles.columns}>
              lotNumber, title, description, category, estimateLow, estimateHigh, reserve,
              consignorName, consignorContact
            </Caption1>
            <Field label="Catalogue file" hint="CSV or Excel (.xlsx), up to 10MB.">
              {/* A native file input: the Field hands it its label and hint as props. */}
              {(fieldProps) => (
                <input
                  {...fieldProps}
                  ref={input}
                  type="file"
                  accept={ACCEPT}
                  disabled={upload.busy}
                  onChange={(event) => {
                    setFile(event.target.files?.[0] ?? null);
                    setResult(null);
                    upload.reset();
                  }}
                />
              )}
            </Field>
            <Button
              appearance="transparent"
              size="small"
              icon={<ArrowDownloadRegular />}
              style={{ alignSelf: 'flex-start' }}
              onClick={() => downloadText('catalogue-template.csv', TEMPLATE)}
            >
              Download a CSV template
            </Button>
            {tooLarge ? (
              <MessageBar intent="error">
                <MessageBarBody>This file is larger than 10MB.</MessageBarBody>
              </MessageBar>
            ) : null}
            {upload.busy ? (
              <Field
                label={
                  progress < 1
                    ? `Uploading... ${Math.round(progress * 100)}%`
                    : 'Checking and saving lots...'
                }
              >
                <ProgressBar value={progress < 1 ? progress : undefined} thickness="large" />
              </Field>
            ) : null}
            {upload.error ? (
              <MessageBar intent="error" layout="multiline">
                <MessageBarBody>{upload.error}</MessageBarBody>
              </MessageBar>
            ) : null}
            {result ? <Result result={result} /> : null}
          </DialogContent>
          <DialogActions>
            <Button onClick={close} disabled={upload.busy}>
              {result ? 'Done' : 'Cancel'}
            </Button>
            <Button
              appearance="primary"
              disabled={!file || upload.busy || tooLarge}
              onClick={() => void upload.run()}
            >
              {upload.busy ? 'Importing...' : 'Import Lots'}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}

/** While the file is on its way, any move away counts, the dialog's own address included. */
const anyMove = (current: Location, next: Location) =>
  current.pathname !== next.pathname || current.search !== next.search;

/**
 * Import Catalogue through the Data Processing Center: the file goes to storage with progress,
 * its columns are checked, the worker puts its lots into this auction, and the dialog shows the
 * figures with a link to the upload, where it can be re-run (Update all overwrites the lots
 * already here, after showing what would change) or undone.
 */
function HandedOffCatalogueImport({
  auction,
  open,
  onClose,
}: {
  auction: Auction;
  open: boolean;
  onClose(): void;
}) {
  const styles = useStyles();
  const actions = useAuctionActions();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const calls = useCallback((files: File[]) => catalogueImportCalls(auction, files), [auction]);
  const handoff = useImportHandoff(calls, { auctionId: auction.id });
  const { state } = handoff;
  const queued = state.step === 'queued' ? state.upload.id : null;
  const status = useCatalogueImportStatus(queued);
  const done = queued !== null && status.data !== undefined && status.data.status !== 'processing';
  const working =
    state.step === 'sending' || state.step === 'checking' || state.step === 'starting';
  const busy = working || state.step === 'mapping' || state.step === 'queued';
  const tooLarge = (file?.size ?? 0) > MAX_UPLOAD_TOTAL_BYTES;
  const { refreshLots } = actions;

  // The lots it added show on the Lots tab as soon as it is done.
  useEffect(() => {
    if (done) void refreshLots(auction.id);
  }, [done, refreshLots, auction.id]);

  const send = async () => {
    if (!file) return;
    await handoff.send([file]);
    if (input.current) input.current.value = '';
  };
  const close = () => {
    if (working) return;
    // Waiting for its mapping, the upload would be left half-done: closing cancels it.
    if (state.step === 'mapping') void handoff.cancel();
    setFile(null);
    handoff.reset();
    onClose();
  };

  return (
    <>
      <Dialog open={open} onOpenChange={(_, data) => !data.open && close()}>
        <DialogSurface className={styles.surface}>
          <DialogBody>
            <DialogTitle>Import Catalogue</DialogTitle>
            <DialogContent className={styles.content}>
              {busy ? null : (
                <>
                  <Body1>
                    One row per lot, with a heading row naming the columns. Amounts are in whole{' '}
                    {auction.currency} ({auction.currencySymbol}). Lots new to this auction are
                    added; a lot number already here is left as it is (run the import again from
                    Data Processing with Update all to overwrite those lots).
                  </Body1>
                  <Caption1 className={styles.columns}>
                    lotNumber, title, description, category, estimateLow, estimateHigh, reserve,
                    consignorName, consignorContact
                  </Caption1>
                  <Field label="Catalogue file" hint="CSV, Excel (.xlsx) or JSON, up to 100MB.">
                    {/* A native file input: the Field hands it its label and hint as props. */}
                    {(fieldProps) => (
                      <input
                        {...fieldProps}
                        ref={input}
                        type="file"
                        accept=".csv,.xlsx,.json"
                        onChange={(event) => {
                          setFile(event.target.files?.[0] ?? null);
                          handoff.reset();
                        }}
                      />
                    )}
                  </Field>
                  <Button
                    appearance="transparent"
                    size="small"
                    icon={<ArrowDownloadRegular />}
                    style={{ alignSelf: 'flex-start' }}
                    onClick={() => downloadText('catalogue-template.csv', TEMPLATE)}
                  >
                    Download a CSV template
                  </Button>
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
                words={{ noun: 'lot', duplicates: 'Already in this auction' }}
              />
            </DialogContent>
            <DialogActions>
              {state.step === 'sending' || state.step === 'mapping' ? (
                <Button onClick={() => void handoff.cancel()}>Cancel import</Button>
              ) : (
                <Button onClick={close} disabled={working}>
                  {done ? 'Done' : state.step === 'queued' ? 'Close' : 'Cancel'}
                </Button>
              )}
              {state.step === 'mapping' ? (
                <Button
                  appearance="primary"
                  disabled={!handoff.ready}
                  onClick={() => void handoff.start()}
                >
                  Start processing
                </Button>
              ) : state.step !== 'queued' ? (
                <Button
                  appearance="primary"
                  disabled={!file || working || tooLarge}
                  onClick={() => void send()}
                >
                  {working ? 'Importing...' : 'Import Lots'}
                </Button>
              ) : null}
            </DialogActions>
          </DialogBody>
        </DialogSurface>
      </Dialog>
      <LeaveGuard
        active={handoff.sending}
        title="Leave while uploading?"
        message="The catalogue is still being uploaded. If you leave now, the import is cancelled and nothing is kept."
        leaveLabel="Leave and cancel import"
        busyLabel="Cancelling..."
        onLeave={handoff.cancel}
        blocks={anyMove}
      />
    </>
  );
}

/**
 * Import Catalogue: a CSV or Excel file of lots. Whoever may import data hands it to the Data
 * Processing Center (in its history, re-runnable, undoable); whoever may only edit the auction
 * imports it directly.
 */
export function CatalogueImportDialog(props: { auction: Auction; open: boolean; onClose(): void }) {
  const can = useCan();
  return can('data:import') ? (
    <HandedOffCatalogueImport {...props} />
  ) : (
    <DirectCatalogueImport {...props} />
  );
}
