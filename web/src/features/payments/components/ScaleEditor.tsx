import { Button, Caption1, Field, Input, makeStyles, tokens } from '@fluentui/react-components';
import { AddRegular, DeleteRegular } from '@fluentui/react-icons';
import { MoneyInput } from '../../../components/MoneyInput';
import type { MoneyCurrency } from '../../../lib/money';
import type { BandDraft } from './rate-scale';

const useStyles = makeStyles({
  rows: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  row: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr) 32px',
    gap: tokens.spacingHorizontalS,
    alignItems: 'end',
    '@media (max-width: 480px)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr) 32px' },
  },
  /**
   * An input as wide as its column, however narrow: a text input's own width (about 20
   * characters) would otherwise push it out over the next column.
   */
  fluid: { width: '100%', minWidth: 0 },
  fluidControl: { width: '100%' },
  above: { paddingBottom: tokens.spacingVerticalS },
});

/**
 * A sliding scale's bands: each rate applies to the part of the amount up to its bound; the last
 * band is everything above. One band is a flat rate.
 */
export function ScaleEditor({
  name,
  currency,
  bands,
  onChange,
  errors,
  prefix,
}: {
  /** What the scale is, for the fields' names: "Premium". */
  name: string;
  currency: MoneyCurrency;
  bands: BandDraft[];
  onChange(bands: BandDraft[]): void;
  errors: Record<string, string>;
  prefix: string;
}) {
  const styles = useStyles();
  const set = (index: number, change: Partial<BandDraft>) =>
    onChange(bands.map((band, at) => (at === index ? { ...band, ...change } : band)));
  return (
    <div className={styles.rows} role="group" aria-label={`${name} bands`}>
      {bands.map((band, index) => {
        const last = index === bands.length - 1;
        return (
          <div key={index} className={styles.row}>
            {last ? (
              <Caption1 className={styles.above}>
                {bands.length === 1 ? 'Every amount' : 'Everything above'}
              </Caption1>
            ) : (
              <MoneyInput
                label={`${name} band ${index + 1} up to`}
                currency={currency}
                value={band.upTo}
                onChange={(upTo) => set(index, { upTo })}
                error={errors[`${prefix}.${index}.upTo`]}
                inputProps={{ className: styles.fluid, input: { className: styles.fluidControl } }}
              />
            )}
            <Field
              label={`${name} band ${index + 1} rate (%)`}
              validationMessage={errors[`${prefix}.${index}.rate`]}
              validationState={errors[`${prefix}.${index}.rate`] ? 'error' : 'none'}
            >
              <Input
                className={styles.fluid}
                input={{ className: styles.fluidControl }}
                inputMode="decimal"
                value={band.rate}
                contentAfter={<span aria-hidden="true">%</span>}
                onChange={(_, data) => set(index, { rate: data.value })}
              />
            </Field>
            <Button
              appearance="subtle"
              icon={<DeleteRegular />}
              aria-label={`Remove ${name.toLowerCase()} band ${index + 1}`}
              disabled={bands.length === 1}
              onClick={() => onChange(bands.filter((_, at) => at !== index))}
            />
          </div>
        );
      })}
      <div>
        <Button
          size="small"
          icon={<AddRegular />}
          disabled={bands.length >= 20}
          onClick={() =>
            onChange([
              ...bands.slice(0, -1),
              { upTo: '', rate: bands.at(-1)?.rate ?? '' },
              ...bands.slice(-1),
            ])
          }
        >
          Add band
        </Button>
      </div>
    </div>
  );
}
