import { Button, type ButtonProps } from '@fluentui/react-components';
import { CheckmarkRegular, CopyRegular } from '@fluentui/react-icons';
import { useEffect, useState } from 'react';
import { useNotify } from '../lib/toast';

/** How long "Copied" shows after a successful copy. */
export const COPIED_INDICATOR_MS = 2000;

export function CopyButton({
  text,
  label = 'Copy',
  size,
  appearance,
  'aria-label': ariaLabel,
}: {
  text: string;
  label?: string;
  size?: ButtonProps['size'];
  appearance?: ButtonProps['appearance'];
  'aria-label'?: string;
}) {
  const [copied, setCopied] = useState(false);
  const notify = useNotify();
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_INDICATOR_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  return (
    <Button
      size={size}
      appearance={appearance}
      aria-label={ariaLabel}
      icon={copied ? <CheckmarkRegular /> : <CopyRegular />}
      onClick={() =>
        navigator.clipboard.writeText(text).then(
          () => setCopied(true),
          () =>
            notify.error('Could not copy', 'Your browser did not allow access to the clipboard.'),
        )
      }
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}
