import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Caption1,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarBody,
  mergeClasses,
  Option,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  Text,
  tokens,
  useId,
} from '@fluentui/react-components';
import { DocumentTableRegular } from '@fluentui/react-icons';
import type { ColumnMapping, UploadPreview } from '@contracts/uploads/uploads.schema';
import { checkMapping, sampleValues, type Mappings } from '../lib/column-mapping';
import { countOf } from '../lib/plural';

const IGNORE = '';

const useStyles = makeStyles({
  files: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  file: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, minWidth: 0 },
  fileHead: {
    display: 'flex',
    alignItems: 'center',
    flexWrap: 'wrap',
    columnGap: tokens.spacingHorizontalS,
    rowGap: tokens.spacingVerticalXXS,
  },
  fileName: { margin: 0, overflowWrap: 'anywhere', fontSize: tokens.fontSizeBase300 },
  muted: { color: tokens.colorNeutralForeground2 },
  columns: {
    display: 'flex',
    flexDirection: 'column',
    margin: 0,
    padding: 0,
    listStyle: 'none',
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  column: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr) minmax(180px, 260px)',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    ':not(:last-child)': {
      borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    },
    '@media (max-width: 560px)': {
      gridTemplateColumns: 'minmax(0, 1fr)',
      gap: tokens.spacingVerticalXS,
    },
  },
  ignored: { backgroundColor: tokens.colorNeutralBackground2 },
  source: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  sample: {
    color: tokens.colorNeutralForeground2,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  dropdown: { minWidth: 0, width: '100%' },
  preview: {
    overflowX: 'auto',
    maxHeight: '320px',
    overflowY: 'auto',
    borderRadius: tokens.borderRadiusMedium,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
  // As wide as its columns need (the region scrolls), at least the region's width.
  previewTable: { width: 'max-content', minWidth: '100%', tableLayout: 'auto' },
  headerCell: { whiteSpace: 'nowrap', verticalAlign: 'bottom' },
  cell: { whiteSpace: 'nowrap', maxWidth: '240px', overflow: 'hidden', textOverflow: 'ellipsis' },
  target: { display: 'block', fontWeight: tokens.fontWeightRegular },
  panel: { margin: 0, paddingBottom: tokens.spacingVerticalS },
});

type FilePreview = UploadPreview['files'][number];

function FileMapping({
  preview,
  file,
  mapping,
  disabled,
  onChange,
}: {
  preview: UploadPreview;
  file: FilePreview;
  mapping: ColumnMapping;
  disabled: boolean;
  onChange(mapping: ColumnMapping): void;
}) {
  const styles = useStyles();
  const titleId = useId('mapping-file');
  const labelOf = new Map(preview.fields.map((field) => [field.key, field.label]));
  const { missing, doubled } = checkMapping(preview.fields, mapping);
  const doubledBy = new Map(
    doubled.flatMap(({ field, columns }) =>
      columns.map((column) => [
        column,
        `${field.label} is also filled from ${columns
          .filter((other) => other !== column)
          .map((other) => `"${other}"`)
          .join(', ')}; choose one column`,
      ]),
    ),
  );
  const targetOf = (column: string) => mapping[column] ?? null;

  return (
    <section className={styles.file} aria-labelledby={titleId}>
      <div className={styles.fileHead}>
        <DocumentTableRegular fontSize={20} aria-hidden="true" />
        <Text as="h3" weight="semibold" id={titleId} className={styles.fileName}>
          {file.name}
        </Text>
        {file.problem === null ? (
          <Caption1 className={styles.muted}>
            {countOf(file.columns.length, 'column')}, first {countOf(file.rows.length, 'row')}
          </Caption1>
        ) : null}
      </div>
      {file.problem !== null ? (
        <MessageBar intent="warning" layout="multiline">
          <MessageBarBody>
            {file.name}: {file.problem}
          </MessageBarBody>
        </MessageBar>
      ) : file.columns.length === 0 ? (
        <MessageBar intent="info">
          <MessageBarBody>This file holds no rows to map.</MessageBarBody>
        </MessageBar>
      ) : (
        <>
          {missing.length ? (
            <MessageBar intent="error" layout="multiline">
              <MessageBarBody>
                Required {missing.length === 1 ? 'field' : 'fields'} not mapped:{' '}
                <strong>{missing.map((field) => field.label).join(', ')}</strong>. Choose the column
                that holds {missing.length === 1 ? 'it' : 'each'}; without{' '}
                {missing.length === 1 ? 'it' : 'them'} every row would fail.
              </MessageBarBody>
            </MessageBar>
          ) : null}
          <ul className={styles.columns} aria-label={`Columns of ${file.name}`}>
            {file.columns.map((column) => {
              const target = targetOf(column);
              const samples = sampleValues(file, column);
              const problem = doubledBy.get(column);
              return (
                <li
                  key={column}
                  className={mergeClasses(styles.column, target === null && styles.ignored)}
                >
                  <div className={styles.source}>
                    <Text weight="semibold">{column}</Text>
                    <Caption1 className={styles.sample} title={samples.join(', ')}>
                      {samples.length ? samples.join(', ') : 'Empty in the first rows'}
                    </Caption1>
                  </div>
                  <Field validationState={problem ? 'error' : 'none'} validationMessage={problem}>
                    <Dropdown
                      className={styles.dropdown}
                      aria-label={`Map column ${column}`}
                      disabled={disabled}
                      value={target ? (labelOf.get(target) ?? target) : 'Ignore'}
                      selectedOptions={[target ?? IGNORE]}
                      onOptionSelect={(_, data) =>
                        onChange({
                          ...mapping,
                          [column]: data.optionValue ? data.optionValue : null,
                        })
                      }
                    >
                      <Option value={IGNORE}>Ignore</Option>
                      {preview.fields.map((field) => (
                        <Option key={field.key} value={field.key}>
                          {field.required ? `${field.label} (required)` : field.label}
                        </Option>
                      ))}
                    </Dropdown>
                  </Field>
                </li>
              );
            })}
          </ul>
          <Accordion collapsible>
            <AccordionItem value="rows">
              <AccordionHeader size="small">
                Preview the first {countOf(file.rows.length, 'row')}
              </AccordionHeader>
              <AccordionPanel className={styles.panel}>
                <div
                  className={styles.preview}
                  role="region"
                  aria-label={`First rows of ${file.name}`}
                  tabIndex={0}
                >
                  <Table size="small" className={styles.previewTable}>
                    <TableHeader>
                      <TableRow>
                        {file.columns.map((column) => {
                          const target = targetOf(column);
                          return (
                            <TableHeaderCell key={column} className={styles.headerCell}>
                              <span>
                                {column}
                                <Caption1 className={mergeClasses(styles.target, styles.muted)}>
                                  {target ? `→ ${labelOf.get(target) ?? target}` : 'ignored'}
                                </Caption1>
                              </span>
                            </TableHeaderCell>
                          );
                        })}
                      </TableRow>
                    </TableHeader>
                    <TableBody>
                      {file.rows.map((row, index) => (
                        <TableRow key={index}>
                          {file.columns.map((column) => (
                            <TableCell key={column} className={styles.cell} title={row[column]}>
                              {row[column] ?? ''}
                            </TableCell>
                          ))}
                        </TableRow>
                      ))}
                    </TableBody>
                  </Table>
                </div>
              </AccordionPanel>
            </AccordionItem>
          </Accordion>
        </>
      )}
    </section>
  );
}

/**
 * The column mapping of an upload before it is processed: for each file, its source columns with
 * their first values and a choice of the importer's field (or Ignore) each, required fields left
 * unmapped and fields filled twice flagged, and the first rows as they came.
 */
export function ColumnMappingEditor({
  preview,
  mappings,
  disabled = false,
  onChange,
}: {
  preview: UploadPreview;
  mappings: Mappings;
  disabled?: boolean;
  onChange(file: number, mapping: ColumnMapping): void;
}) {
  const styles = useStyles();
  return (
    <div className={styles.files}>
      {preview.files.map((file) => (
        <FileMapping
          key={file.index}
          preview={preview}
          file={file}
          mapping={mappings[file.index] ?? file.mapping}
          disabled={disabled}
          onChange={(mapping) => onChange(file.index, mapping)}
        />
      ))}
    </div>
  );
}
