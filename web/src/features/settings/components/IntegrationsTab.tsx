import type { ReactNode } from 'react';
import { useCardGridStyles } from '../../../components/card-grid';

/** Account Settings › APIs: the cards of the features that connect Lotwise to other systems. */
export function IntegrationsTab({ children }: { children: ReactNode }) {
  const grid = useCardGridStyles();
  return <div className={grid.stack}>{children}</div>;
}
