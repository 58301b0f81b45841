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
import { useRef, useState } from 'react';
import { downloadText } from '../../../lib/download';
import { countOf } from '../../../lib/plural';
import { useAction } from '../../../lib/use-action';
import { useAuctionActions } from '../api/auctions';

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
 * Import Catalogue: a CSV or Excel file of lots. Rows whose lot number is already in the auction
 * update that lot; each problem is listed with its row and field, and the other rows still go in.
 */
export function CatalogueImportDialog({
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
