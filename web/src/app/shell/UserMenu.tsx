import {
  Avatar,
  Button,
  Menu,
  MenuDivider,
  MenuGroup,
  MenuGroupHeader,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
} from '@fluentui/react-components';
import {
  KeyRegular,
  LaptopRegular,
  MailRegular,
  PersonRegular,
  SignOutRegular,
} from '@fluentui/react-icons';
import { useNavigate } from 'react-router';
import { useSignedIn } from '../../lib/auth-store';
import { logout } from '../../features/auth/api/session';

/** The avatar: the person's initial, and their profile, password, email, sessions and sign-out. */
export function UserMenu() {
  const navigate = useNavigate();
  const { user } = useSignedIn();
  const name = `${user.firstName} ${user.lastName}`.trim();
  return (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button
          appearance="transparent"
          aria-label={`Account menu for ${name || user.email}`}
          icon={
            <Avatar
              name={name || 'U'}
              initials={(user.firstName[0] ?? 'U').toUpperCase()}
              color="brand"
              size={32}
            />
          }
        />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          <MenuGroup>
            <MenuGroupHeader>{user.email}</MenuGroupHeader>
            <MenuItem icon={<PersonRegular />} onClick={() => navigate('/profile/details')}>
              Profile
            </MenuItem>
            <MenuItem icon={<KeyRegular />} onClick={() => navigate('/profile/password')}>
              Change password
            </MenuItem>
            <MenuItem icon={<MailRegular />} onClick={() => navigate('/profile/email')}>
              Change email
            </MenuItem>
            <MenuItem icon={<LaptopRegular />} onClick={() => navigate('/profile/sessions')}>
              Active sessions
            </MenuItem>
          </MenuGroup>
          <MenuDivider />
          <MenuItem icon={<SignOutRegular />} onClick={() => void logout()}>
            Sign out
          </MenuItem>
        </MenuList>
      </MenuPopover>
    </Menu>
  );
}
