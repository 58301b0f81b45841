import { Button, Tooltip, type ButtonProps } from '@fluentui/react-components';
import type { Permission } from '@contracts/identity/permissions';
import { useCan } from '../lib/auth-store';
import { needsPermission } from '../lib/permission-text';

/**
 * A button for an action that needs a permission. Without it the button stays in place but is
 * off, and says why on hover and focus (still focusable, so keyboard users hear the reason too).
 */
export function PermittedButton({
  permission,
  ...props
}: ButtonProps & { permission: Permission }) {
  const can = useCan();
  if (can(permission)) return <Button {...props} />;
  return (
    <Tooltip content={needsPermission(permission)} relationship="description">
      <Button {...props} disabledFocusable onClick={undefined} />
    </Tooltip>
  );
}
