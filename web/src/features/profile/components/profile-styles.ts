import { makeStyles, tokens } from '@fluentui/react-components';

export const useProfileStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    maxWidth: '640px',
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  pair: {
    display: 'grid',
    gridTemplateColumns: '1fr 1fr',
    gap: tokens.spacingHorizontalM,
    '@media (max-width: 560px)': { gridTemplateColumns: '1fr' },
  },
  actions: {
    display: 'flex',
    gap: tokens.spacingHorizontalM,
    alignItems: 'center',
    flexWrap: 'wrap',
  },
});
