import {
  Button,
  Field,
  Input,
  makeStyles,
  MessageBar,
  MessageBarBody,
  tokens,
} from '@fluentui/react-components';
import { EyeOffRegular, EyeRegular } from '@fluentui/react-icons';
import { useState } from 'react';
import { CopyButton } from './CopyButton';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  row: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  value: { flexGrow: 1, fontFamily: tokens.fontFamilyMonospace },
});

/**
 * A secret shown once (an API key, a signing secret): masked until asked, with a copy button,
 * and a warning that it cannot be seen again.
 */
export function SecretReveal({ label, value }: { label: string; value: string }) {
  const styles = useStyles();
  const [shown, setShown] = useState(false);
  return (
    <div className={styles.root}>
      <MessageBar intent="warning">
        <MessageBarBody>
          Copy it now and keep it somewhere safe: it will not be shown again.
        </MessageBarBody>
      </MessageBar>
      <Field label={label}>
        <div className={styles.row}>
          <Input
            className={styles.value}
            readOnly
            type={shown ? 'text' : 'password'}
            value={value}
            onFocus={(event) => event.currentTarget.select()}
          />
          <Button
            icon={shown ? <EyeOffRegular /> : <EyeRegular />}
            aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
            aria-pressed={shown}
            onClick={() => setShown(!shown)}
          />
          <CopyButton text={value} aria-label={`Copy ${label.toLowerCase()}`} />
        </div>
      </Field>
    </div>
  );
}
