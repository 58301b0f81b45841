import {
  Body1,
  Button,
  Caption1,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  makeStyles,
  mergeClasses,
  Spinner,
  Text,
  tokens,
} from '@fluentui/react-components';
import { CheckmarkCircleRegular, ErrorCircleRegular } from '@fluentui/react-icons';
import { currencySymbols, type Auction } from '@contracts/auctions/auctions.schema';
import type { Lot, LotResultInput } from '@contracts/auctions/lots/lots.schema';
import type { Registration } from '@contracts/auctions/registrations/registrations.schema';
import { useRef, useState, type KeyboardEvent } from 'react';
import { formatMoney, parseMoney, toMajorText } from '../../../lib/money';
import { useAuctionActions } from '../api/auctions';
import { messageOf } from '../../../lib/api-client';

const useStyles = makeStyles({
  sheet: {
    display: 'flex',
    flexDirection: 'column',
    borderRadius: tokens.borderRadiusLarge,
    border: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground1,
    overflow: 'hidden',
  },
  row: {
    display: 'grid',
    gridTemplateColumns: '64px minmax(0, 2fr) 160px 160px 104px minmax(160px, 1.4fr)',
    gap: tokens.spacingHorizontalM,
    alignItems: 'center',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`,
    borderBottom: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke3}`,
    gridTemplateAreas: '"lot title hammer buyer passed result"',
    // A narrow screen stacks each lot: what it is, then the two fields, then passed and result.
    '@media (max-width: 900px)': {
      gridTemplateColumns: '48px minmax(0, 1fr) minmax(0, 1fr)',
      gridTemplateAreas: '"lot title title" "hammer hammer buyer" "passed passed result"',
      rowGap: tokens.spacingVerticalS,
      paddingInline: tokens.spacingHorizontalM,
    },
  },
  lotArea: { gridArea: 'lot' },
  titleArea: { gridArea: 'title' },
  hammerArea: { gridArea: 'hammer' },
  buyerArea: { gridArea: 'buyer' },
  passedArea: { gridArea: 'passed' },
  checks: { display: 'flex', flexDirection: 'column' },
  resultArea: { gridArea: 'result' },
  head: {
    backgroundColor: tokens.colorNeutralBackground3,
    fontWeight: tokens.fontWeightSemibold,
    fontSize: tokens.fontSizeBase200,
    color: tokens.colorNeutralForeground2,
    '@media (max-width: 900px)': { display: 'none' },
  },
  current: { backgroundColor: tokens.colorBrandBackground2 },
  lotNumber: { fontWeight: tokens.fontWeightSemibold },
  // Fluent's inputs have a minimum width of their own: here they fill their column instead.
  input: { width: '100%', minWidth: 0 },
  title: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground2 },
  buyer: { display: 'flex', flexDirection: 'column', gap: '2px', minWidth: 0 },
  state: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, minWidth: 0 },
  saved: { color: tokens.colorPaletteGreenForeground1 },
  failed: { color: tokens.colorPaletteRedForeground1 },
  wideOnly: { '@media (max-width: 900px)': { display: 'none' } },
});

interface Draft {
  hammer: string;
  buyer: string;
  passed: boolean;
  /** A Hybrid sale's lot won online (the internet premium applies) rather than in the room. */
  online: boolean;
}

type RowState = { kind: 'saving' } | { kind: 'saved' } | { kind: 'failed'; message: string };

const draftOf = (lot: Lot, auction: Auction): Draft => ({
  hammer: lot.result?.outcome === 'sold' ? toMajorText(lot.result.hammer, auction.currency) : '',
  buyer: lot.result?.paddle ?? lot.result?.buyerBidderId ?? '',
  passed: lot.result?.outcome === 'passed',
  online: lot.result?.channel === 'online',
});

const sameDraft = (a: Draft, b: Draft) =>
  a.passed === b.passed &&
  (a.passed ||
    (a.hammer.trim() === b.hammer.trim() &&
      a.buyer.trim() === b.buyer.trim() &&
      a.online === b.online));

/** The approved bidder a clerk means by a paddle number or a bidder ID. */
function findBuyer(registrations: Registration[], text: string): Registration | undefined {
  const wanted = text.trim().toLowerCase();
  if (!wanted) return undefined;
  return registrations.find(
    (registration) =>
      registration.status === 'approved' &&
      (registration.paddle?.toLowerCase() === wanted ||
        registration.bidderNumber.toLowerCase() === wanted),
  );
}

/**
 * Clerking: the whole sale as one sheet, a row per lot in catalogue order. Type the hammer and the
 * buyer's paddle (or bidder ID), or tick Passed, and press Enter: the row is saved and the next
 * lot takes the focus. Changing a lot already clerked asks why, and the reason is kept.
 */
export function ClerkingSheet({
  auction,
  lots,
  registrations,
}: {
  auction: Auction;
  lots: Lot[];
  registrations: Registration[];
}) {
  const styles = useStyles();
  const actions = useAuctionActions();
  const sheet = useRef<HTMLDivElement>(null);
  const [drafts, setDrafts] = useState<Record<string, Draft>>({});
  const [states, setStates] = useState<Record<string, RowState>>({});
  const [currentId, setCurrentId] = useState<string | null>(lots[0]?.id ?? null);
  const [correcting, setCorrecting] = useState<{ lot: Lot; draft: Draft } | null>(null);
  const [reason, setReason] = useState('');
  const symbol = currencySymbols[auction.currency];
  const hybrid = auction.type === 'Hybrid';

  const draftFor = (lot: Lot) => drafts[lot.id] ?? draftOf(lot, auction);
  const edit = (lot: Lot, changes: Partial<Draft>) => {
    setDrafts((current) => ({ ...current, [lot.id]: { ...draftFor(lot), ...changes } }));
    setStates((current) => {
      const { [lot.id]: _, ...rest } = current;
      return rest;
    });
  };

  /** Puts the focus in the first field that takes input on the lot's row. */
  const focusRow = (lotId: string | undefined) => {
    if (!lotId) return;
    setCurrentId(lotId);
    // After the row re-renders: a passed row's hammer field is off, so its checkbox is next.
    requestAnimationFrame(() => {
      // A clerk who moved on while the row saved (to Close Auction's dialog, say) keeps their
      // focus: taking it back into the sheet would leave a modal dialog without it.
      const active = document.activeElement;
      if (active && active !== document.body && !sheet.current?.contains(active)) return;
      sheet.current
        ?.querySelector<HTMLInputElement>(`[data-lot="${lotId}"] input:not(:disabled)`)
        ?.focus();
    });
  };
  const next = (lot: Lot) => lots[lots.findIndex((candidate) => candidate.id === lot.id) + 1];

  const save = async (lot: Lot, draft: Draft, why?: string) => {
    let result: LotResultInput;
    if (draft.passed) {
      result = { outcome: 'passed', underbidders: [], ...(why ? { reason: why } : {}) };
    } else {
      const hammer = parseMoney(draft.hammer, auction.currency);
      if (!hammer.ok || hammer.minor === null || hammer.minor <= 0) {
        const message = !hammer.ok
          ? `Hammer ${hammer.message}`
          : 'Enter the hammer price, or tick Passed';
        setStates((current) => ({ ...current, [lot.id]: { kind: 'failed', message } }));
        return;
      }
      if (!draft.buyer.trim()) {
        setStates((current) => ({
          ...current,
          [lot.id]: { kind: 'failed', message: 'Enter the buyer’s paddle or bidder ID' },
        }));
        return;
      }
      const buyer = findBuyer(registrations, draft.buyer);
      // A bidder ID names the bidder; anything else is a paddle the service looks up.
      const byBidder =
        buyer && buyer.bidderNumber.toLowerCase() === draft.buyer.trim().toLowerCase();
      result = {
        outcome: 'sold',
        hammer: hammer.minor,
        ...(byBidder ? { bidderId: buyer.bidderId } : { paddle: draft.buyer.trim() }),
        ...(hybrid ? { channel: draft.online ? 'online' : 'room' } : {}),
        underbidders: [],
        ...(why ? { reason: why } : {}),
      };
    }
    setStates((current) => ({ ...current, [lot.id]: { kind: 'saving' } }));
    try {
      await actions.recordResult(auction.id, lot.id, result);
      setDrafts((current) => {
        const { [lot.id]: _, ...rest } = current;
        return rest;
      });
      setStates((current) => ({ ...current, [lot.id]: { kind: 'saved' } }));
      focusRow(next(lot)?.id);
    } catch (error) {
      setStates((current) => ({
        ...current,
        [lot.id]: { kind: 'failed', message: messageOf(error) },
      }));
      focusRow(lot.id);
    }
  };

  /** Enter: save the row (asking why for a correction) and go on; an untouched row is skipped. */
  const onEnter = (event: KeyboardEvent, lot: Lot) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    const draft = draftFor(lot);
    const saved = draftOf(lot, auction);
    if (lot.result && sameDraft(draft, saved)) {
      focusRow(next(lot)?.id);
      return;
    }
    if (!lot.result && !draft.passed && !draft.hammer.trim() && !draft.buyer.trim()) {
      focusRow(next(lot)?.id);
      return;
    }
    if (lot.result) {
      setReason('');
      setCorrecting({ lot, draft });
      return;
    }
    void save(lot, draft);
  };

  const confirmCorrection = () => {
    if (!correcting || !reason.trim()) return;
    const { lot, draft } = correcting;
    setCorrecting(null);
    void save(lot, draft, reason.trim());
  };

  const resultText = (lot: Lot) => {
    if (!lot.result) return 'Not clerked';
    if (lot.result.outcome === 'passed') return 'Passed';
    const buyer = lot.result.buyerName ?? lot.result.paddle ?? 'buyer';
    const where = hybrid && lot.result.channel === 'online' ? ' online' : '';
    return `Sold ${formatMoney(lot.result.hammer ?? 0, auction.currency)} to ${buyer}${where}`;
  };

  return (
    <>
      <Caption1 className={styles.muted}>
        Type the hammer price and the buyer&apos;s paddle (or bidder ID), or tick Passed, then press
        Enter: the lot is saved and the next one is ready. Enter on an untouched lot skips it.
        {hybrid ? ' Tick Online for a lot won online: the internet premium applies to it.' : ''}
      </Caption1>
      <div ref={sheet} className={styles.sheet} role="table" aria-label="Clerking sheet">
        <div className={mergeClasses(styles.row, styles.head)} role="row">
          <span role="columnheader">Lot</span>
          <span role="columnheader">Title</span>
          <span role="columnheader">Hammer ({symbol})</span>
          <span role="columnheader">Buyer</span>
          <span role="columnheader">Passed</span>
          <span role="columnheader">Result</span>
        </div>
        {lots.map((lot) => {
          const draft = draftFor(lot);
          const state = states[lot.id];
          const buyer = draft.passed ? undefined : findBuyer(registrations, draft.buyer);
          return (
            <div
              key={lot.id}
              role="row"
              data-lot={lot.id}
              className={mergeClasses(styles.row, currentId === lot.id && styles.current)}
              onFocus={() => setCurrentId(lot.id)}
            >
              <span role="cell" className={mergeClasses(styles.lotNumber, styles.lotArea)}>
                {lot.lotNumber}
              </span>
              <span role="cell" className={mergeClasses(styles.title, styles.titleArea)}>
                <Text className={styles.ellipsis}>{lot.title}</Text>
                {lot.estimateLow !== null || lot.estimateHigh !== null ? (
                  <Caption1 className={mergeClasses(styles.muted, styles.wideOnly)}>
                    Est.{' '}
                    {lot.estimateLow === null
                      ? '?'
                      : formatMoney(lot.estimateLow, auction.currency)}
                    –
                    {lot.estimateHigh === null
                      ? '?'
                      : formatMoney(lot.estimateHigh, auction.currency)}
                  </Caption1>
                ) : null}
              </span>
              <span role="cell" className={styles.hammerArea}>
                <Input
                  className={styles.input}
                  aria-label={`Hammer price for lot ${lot.lotNumber}`}
                  placeholder={draft.passed ? 'Passed' : 'Hammer'}
                  inputMode={auction.currency === 'JPY' ? 'numeric' : 'decimal'}
                  contentBefore={<span aria-hidden="true">{symbol}</span>}
                  value={draft.passed ? '' : draft.hammer}
                  disabled={draft.passed}
                  onChange={(_, data) => edit(lot, { hammer: data.value })}
                  onKeyDown={(event) => onEnter(event, lot)}
                  autoComplete="off"
                />
              </span>
              <span role="cell" className={mergeClasses(styles.buyer, styles.buyerArea)}>
                <Input
                  className={styles.input}
                  aria-label={`Buyer's paddle or bidder ID for lot ${lot.lotNumber}`}
                  placeholder={draft.passed ? 'Passed' : 'Paddle'}
                  value={draft.passed ? '' : draft.buyer}
                  disabled={draft.passed}
                  onChange={(_, data) => edit(lot, { buyer: data.value })}
                  onKeyDown={(event) => onEnter(event, lot)}
                  autoComplete="off"
                />
                {buyer ? (
                  <Caption1 className={mergeClasses(styles.muted, styles.ellipsis)}>
                    {buyer.bidderName}
                  </Caption1>
                ) : null}
              </span>
              <span role="cell" className={mergeClasses(styles.passedArea, styles.checks)}>
                <Checkbox
                  label="Passed"
                  aria-label={`Lot ${lot.lotNumber} passed`}
                  checked={draft.passed}
                  onChange={(_, data) => edit(lot, { passed: Boolean(data.checked) })}
                  onKeyDown={(event) => onEnter(event, lot)}
                />
                {hybrid ? (
                  <Checkbox
                    label="Online"
                    aria-label={`Lot ${lot.lotNumber} won online`}
                    checked={!draft.passed && draft.online}
                    disabled={draft.passed}
                    onChange={(_, data) => edit(lot, { online: Boolean(data.checked) })}
                    onKeyDown={(event) => onEnter(event, lot)}
                  />
                ) : null}
              </span>
              <span
                role="cell"
                className={mergeClasses(styles.state, styles.resultArea)}
                aria-live="polite"
              >
                {state?.kind === 'saving' ? (
                  <Spinner size="extra-tiny" label="Saving..." />
                ) : state?.kind === 'failed' ? (
                  <Caption1 className={styles.failed}>
                    <ErrorCircleRegular aria-hidden="true" /> {state.message}
                  </Caption1>
                ) : (
                  <Caption1 className={state?.kind === 'saved' ? styles.saved : styles.muted}>
                    {state?.kind === 'saved' ? <CheckmarkCircleRegular aria-hidden="true" /> : null}{' '}
                    {resultText(lot)}
                  </Caption1>
                )}
              </span>
            </div>
          );
        })}
      </div>
      <Dialog
        open={correcting !== null}
        modalType="alert"
        onOpenChange={(_, data) => {
          if (!data.open && correcting) {
            const lotId = correcting.lot.id;
            setCorrecting(null);
            focusRow(lotId);
          }
        }}
      >
        <DialogSurface>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              confirmCorrection();
            }}
          >
            <DialogBody>
              <DialogTitle>Correct lot {correcting?.lot.lotNumber}?</DialogTitle>
              <DialogContent>
                <Body1 block>
                  It was recorded as {correcting ? resultText(correcting.lot).toLowerCase() : ''}.
                  Say why it changes: the correction and its reason are kept in the audit log.
                </Body1>
                <Field label="Reason for the correction" required>
                  <Input
                    autoFocus
                    value={reason}
                    onChange={(_, data) => setReason(data.value)}
                    autoComplete="off"
                  />
                </Field>
              </DialogContent>
              <DialogActions>
                <Button
                  onClick={() => {
                    if (!correcting) return;
                    const lotId = correcting.lot.id;
                    setCorrecting(null);
                    focusRow(lotId);
                  }}
                >
                  Cancel
                </Button>
                <Button appearance="primary" type="submit" disabled={!reason.trim()}>
                  Save Correction
                </Button>
              </DialogActions>
            </DialogBody>
          </form>
        </DialogSurface>
      </Dialog>
    </>
  );
}
