import { Link } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

/** A Fluent link that navigates inside the app without a page load. */
export function AppLink({
  to,
  children,
  className,
}: {
  to: string;
  children: ReactNode;
  className?: string;
}) {
  const navigate = useNavigate();
  return (
    <Link
      href={to}
      className={className}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        navigate(to);
      }}
    >
      {children}
    </Link>
  );
}
