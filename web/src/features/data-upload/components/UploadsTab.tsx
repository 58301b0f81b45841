import {
  Body1,
  Button,
  Caption1,
  Dropdown,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  Option,
  SearchBox,
  Skeleton,
  SkeletonItem,
  Subtitle1,
  tokens,
  useId,
} from '@fluentui/react-components';
import { ArrowSyncRegular, CloudArrowUpRegular } from '@fluentui/react-icons';
import {
  uploadCategories,
  uploadStatuses,
  type Upload,
  type UploadCategory,
  type UploadStatus,
} from '@contracts/uploads/uploads.schema';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { messageOf } from '../../../lib/api-client';
import { countOf } from '../../../lib/plural';
import { categoryLabels, statusLabels, useUploadHistory } from '../api/uploads';
import { MappingStep } from './MappingStep';
import { NewUploadForm, type UploadTracking } from './NewUploadForm';
import { UploadCard } from './UploadCard';
import { useUploadStyles } from './upload-style';

const ALL = 'all';

const useStyles = makeStyles({
  layout: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 1fr)',
    gap: tokens.spacingHorizontalXL,
    alignItems: 'start',
    '@media (min-width: 1200px)': {
      gridTemplateColumns: 'minmax(340px, 420px) minmax(0, 1fr)',
    },
  },
  historyHead: {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: tokens.spacingHorizontalS,
  },
  /** The column mapping step: across the whole width, above the form and the history. */
  wide: { gridColumn: '1 / -1' },
  list: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalM,
    margin: 0,
    padding: 0,
    listStyle: 'none',
  },
});

/** The history's filters as the address keeps them (`?q=&category=&status=`). */
function useHistoryFilters() {
  const [params, setParams] = useSearchParams();
  const search = params.get('q') ?? '';
  const category = uploadCategories.find((candidate) => candidate === params.get('category'));
  const status = uploadStatuses.find((candidate) => candidate === params.get('status'));
  /** An upload a link points at (`?upload=<id>`, from the Import dialogs): shown and marked. */
  const linked = params.get('upload');
  const set = (name: 'q' | 'category' | 'status', value: string) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (value && value !== ALL) next.set(name, value);
        else next.delete(name);
        return next;
      },
      { replace: true },
    );
  return { search, category, status, linked, set };
}

type Pages = { items: Upload[]; continuationToken: string | null }[] | undefined;

/** Uploads & Processing (spec 2.7): the New Upload form and the Processing History. */
export function UploadsTab() {
  const styles = useStyles();
  const shared = useUploadStyles();
  const historyTitle = useId('history');
  const { search, category, status, linked, set } = useHistoryFilters();
  const deferred = useDeferredValue(search);
  const history = useUploadHistory({
    search: deferred,
    ...(category ? { category } : {}),
    ...(status ? { status } : {}),
  });
  const { mutate } = history;
  /** The upload this browser is sending, and how far it has got (0 to 1). */
  const [sending, setSending] = useState<{ id: string; sent: number } | null>(null);
  /** The upload whose column mapping is being chosen (its files are in, not yet processed). */
  const [mapping, setMapping] = useState<Upload | null>(null);
  const refresh = useCallback(() => mutate(), [mutate]);

  const tracking = useMemo<UploadTracking>(
    () => ({
      onStarted: (upload) => {
        setSending({ id: upload.id, sent: 0 });
        void mutate(
          (pages: Pages) =>
            pages?.length
              ? [
                  {
                    ...pages[0],
                    items: [upload, ...(pages[0]?.items ?? []).filter((i) => i.id !== upload.id)],
                    continuationToken: pages[0]?.continuationToken ?? null,
                  },
                  ...pages.slice(1),
                ]
              : [{ items: [upload], continuationToken: null }],
          { revalidate: false },
        );
      },
      onProgress: (id, sent) => setSending({ id, sent }),
      onFailed: (id) => {
        setSending(null);
        void mutate(
          (pages: Pages) =>
            pages?.map((page) => ({ ...page, items: page.items.filter((item) => item.id !== id) })),
          { revalidate: true },
        );
      },
      onMapping: (upload) => {
        setSending(null);
        setMapping(upload);
        void mutate();
      },
      onSent: () => {
        setSending(null);
        void mutate();
      },
    }),
    [mutate],
  );

  const uploads = history.data?.flatMap((page) => page.items) ?? [];
  const more = Boolean(history.data?.at(-1)?.continuationToken);
  const filtered = Boolean(search || category || status);
  const linkedGone =
    linked !== null &&
    history.data !== undefined &&
    !filtered &&
    !more &&
    !uploads.some((upload) => upload.id === linked);
  const closeMapping = useCallback(() => {
    setMapping(null);
    void mutate();
  }, [mutate]);

  return (
    <div className={styles.layout}>
      {mapping ? (
        <div className={styles.wide}>
          <MappingStep
            key={mapping.id}
            upload={mapping}
            onQueued={closeMapping}
            onClosed={closeMapping}
          />
        </div>
      ) : null}
      <NewUploadForm tracking={tracking} />
      <section className={shared.stack} aria-labelledby={historyTitle}>
        <div className={styles.historyHead}>
          <Subtitle1 as="h2" id={historyTitle} className={shared.sectionTitle}>
            Processing History
          </Subtitle1>
          <Button
            appearance="subtle"
            icon={<ArrowSyncRegular />}
            disabled={history.isValidating}
            onClick={() => void refresh()}
          >
            Refresh
          </Button>
        </div>
        <div className={shared.toolbar}>
          <Field label="Search uploads" className={shared.search}>
            <SearchBox
              value={search}
              placeholder="Name, description or file name"
              onChange={(_, data) => set('q', data.value)}
            />
          </Field>
          <Field label="Category" className={shared.filter}>
            <Dropdown
              className={shared.filterControl}
              value={category ? categoryLabels[category] : 'All categories'}
              selectedOptions={[category ?? ALL]}
              onOptionSelect={(_, data) => set('category', data.optionValue ?? '')}
            >
              <Option value={ALL}>All categories</Option>
              {uploadCategories.map((candidate: UploadCategory) => (
                <Option key={candidate} value={candidate}>
                  {categoryLabels[candidate]}
                </Option>
              ))}
            </Dropdown>
          </Field>
          <Field label="Status" className={shared.filter}>
            <Dropdown
              className={shared.filterControl}
              value={status ? statusLabels[status] : 'All statuses'}
              selectedOptions={[status ?? ALL]}
              onOptionSelect={(_, data) => set('status', data.optionValue ?? '')}
            >
              <Option value={ALL}>All statuses</Option>
              {uploadStatuses.map((candidate: UploadStatus) => (
                <Option key={candidate} value={candidate}>
                  {statusLabels[candidate]}
                </Option>
              ))}
            </Dropdown>
          </Field>
        </div>
        {linkedGone ? (
          <MessageBar intent="info">
            <MessageBarBody>
              The upload this link points to is no longer in the Processing History.
            </MessageBarBody>
          </MessageBar>
        ) : null}
        {history.error ? (
          <MessageBar intent="error">
            <MessageBarBody>
              The history could not be loaded: {messageOf(history.error)}
            </MessageBarBody>
            <MessageBarActions>
              <Button onClick={() => void refresh()}>Try again</Button>
            </MessageBarActions>
          </MessageBar>
        ) : null}
        {history.data ? (
          uploads.length ? (
            <ul className={styles.list} aria-label="Uploads">
              {uploads.map((upload) => (
                <UploadCard
                  key={upload.id}
                  upload={upload}
                  {...(sending?.id === upload.id ? { sending: sending.sent } : {})}
                  highlighted={upload.id === linked}
                  mappingOpen={upload.id === mapping?.id}
                  onChanged={refresh}
                  onMap={setMapping}
                />
              ))}
            </ul>
          ) : (
            <div className={shared.empty}>
              <CloudArrowUpRegular fontSize={32} aria-hidden="true" />
              <Body1>
                {filtered
                  ? 'No uploads match these filters.'
                  : 'No uploads yet. Files you upload appear here with their processing results.'}
              </Body1>
            </div>
          )
        ) : history.error ? null : (
          <Skeleton aria-label="Loading the processing history">
            {[0, 1, 2].map((row) => (
              <SkeletonItem key={row} size={72} style={{ marginBottom: 8 }} />
            ))}
          </Skeleton>
        )}
        {uploads.length ? (
          <div className={shared.more}>
            {more ? (
              <Button
                disabled={history.isValidating}
                onClick={() => void history.setSize(history.size + 1)}
              >
                {history.isValidating ? 'Loading...' : 'Load more'}
              </Button>
            ) : (
              <Caption1 className={shared.muted} aria-live="polite">
                {countOf(uploads.length, 'upload')}
              </Caption1>
            )}
          </div>
        ) : null}
      </section>
    </div>
  );
}
