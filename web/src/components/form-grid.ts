import { makeStyles, tokens } from '@fluentui/react-components';

/**
 * Form fields two to a row (one on a phone), each starting at the row's top line. Without
 * `alignItems: start` a field beside a taller one (a longer hint, a validation message) is
 * stretched, and Fluent's Field shares the extra height out between its rows, which pushes its
 * input below its neighbour's.
 */
export const useFormGridStyles = makeStyles({
  row: {
    display: 'grid',
    gridTemplateColumns: 'repeat(2, minmax(0, 1fr))',
    gap: tokens.spacingHorizontalM,
    alignItems: 'start',
    '@media (max-width: 560px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  /** A field across the whole row. */
  wide: { gridColumn: '1 / -1' },
});
