import { Button, type ButtonProps } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

/**
 * A button that leads to another view: a real link (open in a new tab, copy the address) that
 * navigates inside the app on a plain click.
 */
export function LinkButton({
  to,
  children,
  ...props
}: {
  to: string;
  children: ReactNode;
  appearance?: ButtonProps['appearance'];
  size?: ButtonProps['size'];
  icon?: ButtonProps['icon'];
  iconPosition?: ButtonProps['iconPosition'];
  className?: string;
  'aria-label'?: string;
}) {
  const navigate = useNavigate();
  return (
    <Button
      {...props}
      as="a"
      href={to}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </Button>
  );
}
