import {
  Body1,
  Caption1,
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
import type { UploadStatusView } from '@contracts/uploads/uploads.schema';
import { countOf } from '../lib/plural';
import type { ImportHandoff } from '../lib/use-import-handoff';
import { AppLink } from './AppLink';
import { ColumnMappingEditor } from './ColumnMappingEditor';

const useStyles = makeStyles({
  stack: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    '& > *': { flexShrink: 0 },
  },
  muted: { color: tokens.colorNeutralForeground2 },
  figures: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(110px, 1fr))',
    gap: tokens.spacingHorizontalS,
    margin: 0,
  },
  figure: {
    display: 'flex',
    flexDirection: 'column',
    justifyContent: 'space-between',
    padding: tokens.spacingHorizontalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground3,
    '& dt': { color: tokens.colorNeutralForeground2, fontSize: tokens.fontSizeBase200 },
    '& dd': {
      margin: 0,
      fontSize: tokens.fontSizeBase500,
      fontWeight: tokens.fontWeightSemibold,
      fontVariantNumeric: 'tabular-nums',
    },
  },
  errors: { maxHeight: '240px', overflowY: 'auto' },
});

/** The path of an upload's card in the Data Processing Center. */
export const uploadLink = (uploadId: string) =>
  `/data-upload?upload=${encodeURIComponent(uploadId)}`;

export interface OutcomeWords {
  /** The record imported, e.g. `bidder` (and its plural when not `+s`). */
  noun: string;
  nouns?: string;
  /** The label of rows already on file, e.g. "Already on file". */
  duplicates: string;
}

function Outcome({ status, words }: { status: UploadStatusView; words: OutcomeWords }) {
  const styles = useStyles();
  const { results } = status;
  const failed = status.status === 'error';
  const figures: [string, number][] = [
    ['Processed', results.recordsProcessed],
    ['Added', results.recordsImported],
    ...(results.duplicates !== undefined
      ? ([[words.duplicates, results.duplicates]] as [string, number][])
      : []),
    ['Errors', results.errorCount],
  ];
  return (
    <>
      <MessageBar
        intent={failed ? 'error' : results.errorCount ? 'warning' : 'success'}
        layout="multiline"
      >
        <MessageBarBody>
          <MessageBarTitle>{failed ? 'Import failed' : 'Import finished'}</MessageBarTitle>
          {countOf(results.recordsImported, words.noun, words.nouns)} added
          {results.duplicates
            ? `, ${results.duplicates.toLocaleString()} ${words.duplicates.toLowerCase()}`
            : ''}
          . <AppLink to={uploadLink(status.uploadId)}>Open it in Data Processing</AppLink> to undo
          it or run it again.
        </MessageBarBody>
      </MessageBar>
      <dl className={styles.figures}>
        {figures.map(([label, value]) => (
          <div key={label} className={styles.figure}>
            <dt>{label}</dt>
            <dd>{value.toLocaleString()}</dd>
          </div>
        ))}
      </dl>
      {(results.notes ?? []).map((note, index) => (
        <MessageBar key={index} intent="info" layout="multiline">
          <MessageBarBody>
            {note.file ? <strong>{note.file}: </strong> : null}
            {note.message}
          </MessageBarBody>
        </MessageBar>
      ))}
      {results.errors.length ? (
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
              {results.errors.map((problem, index) => (
                <TableRow key={`${problem.file ?? ''}-${problem.row ?? ''}-${index}`}>
                  <TableCell>{problem.row ?? '—'}</TableCell>
                  <TableCell>{problem.field ?? '—'}</TableCell>
                  <TableCell>
                    {problem.file && problem.row === null
                      ? `${problem.file}: ${problem.message}`
                      : problem.message}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      ) : null}
      {results.errorCount > results.errors.length ? (
        <Caption1 className={styles.muted}>
          The first {results.errors.length} of {countOf(results.errorCount, 'error')}; the full
          report downloads from Data Processing.
        </Caption1>
      ) : null}
    </>
  );
}

/**
 * What an Import dialog shows once its files are handed to the Data Processing Center: the
 * upload's progress, the mapping when it needs a look, then the processing's progress and
 * figures, with a link to the upload's card.
 */
export function ImportHandoffPanel({
  handoff,
  status,
  words,
}: {
  handoff: ImportHandoff;
  /** The upload's status while it is queued (the feature's own polling call). */
  status: UploadStatusView | undefined;
  words: OutcomeWords;
}) {
  const styles = useStyles();
  const { state } = handoff;
  return (
    <div className={styles.stack}>
      {state.step === 'sending' ? (
        <Field label={`Uploading... ${Math.round(state.sent * 100)}%`} validationState="none">
          <ProgressBar
            value={state.sent}
            thickness="large"
            aria-label="Upload progress"
            aria-valuetext={`${Math.round(state.sent * 100)}%`}
          />
        </Field>
      ) : null}
      {state.step === 'checking' || state.step === 'starting' ? (
        <Field
          label={state.step === 'checking' ? 'Reading the first rows...' : 'Starting processing...'}
          validationState="none"
        >
          <ProgressBar thickness="large" aria-label="Preparing the import" />
        </Field>
      ) : null}
      {state.step === 'mapping' ? (
        <>
          <Body1>
            The files are uploaded but need a look before processing: check which field each column
            fills, then start processing, or cancel the import.
          </Body1>
          <ColumnMappingEditor
            preview={state.preview}
            mappings={state.mappings}
            onChange={handoff.map}
          />
        </>
      ) : null}
      {state.step === 'queued' ? (
        status && status.status !== 'processing' ? (
          <Outcome status={status} words={words} />
        ) : (
          <>
            <Field label={`Processing... ${status?.progress ?? 0}%`} validationState="none">
              <ProgressBar
                value={(status?.progress ?? 0) / 100}
                thickness="large"
                aria-label="Processing progress"
                aria-valuetext={`${status?.progress ?? 0}%`}
              />
            </Field>
            <Body1 className={styles.muted}>
              Processing goes on if you close this.{' '}
              <AppLink to={uploadLink(state.upload.id)}>Follow it in Data Processing</AppLink>.
            </Body1>
          </>
        )
      ) : null}
      {handoff.error ? (
        <MessageBar intent="error" layout="multiline">
          <MessageBarBody>{handoff.error}</MessageBarBody>
        </MessageBar>
      ) : null}
    </div>
  );
}
