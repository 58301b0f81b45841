import { makeStyles, tokens } from '@fluentui/react-components';

export const useProfileStyles = makeStyles({
  card: {
    padding: tokens.spacingHorizontalXL,
    maxWidth: '640px',
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalM },
  },
  form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  actions: {
    display: 'flex',
    gap: tokens.spacingHorizontalM,
    alignItems: 'center',
    flexWrap: 'wrap',
  },
});
