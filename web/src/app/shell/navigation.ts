import type { AccountView } from '@contracts/identity/accounts/accounts.schema';
import {
  BoxRegular,
  CloudArrowUpRegular,
  GavelRegular,
  HomeRegular,
  PaymentRegular,
  PeopleRegular,
  QuestionCircleRegular,
  ScalesRegular,
  SettingsRegular,
  ShieldPersonRegular,
  type FluentIcon,
} from '@fluentui/react-icons';

export interface NavItem {
  to: string;
  label: string;
  icon: FluentIcon;
}

/**
 * The views that have a screen, in the spec's order. Legal shows to those who may view cases,
 * Data Processing to those who may import data.
 * Inventory and Payments open their screens where the account has the add-on (to those who may
 * view them) and the upgrade offer where it does not.
 */
export function navigationFor(account: AccountView): NavItem[] {
  const has = (feature: string) => account.features.includes(feature);
  const may = (permission: string) =>
    account.role === 'owner' || account.permissions.includes(permission);
  return [
    { to: '/dashboard', label: 'Dashboard', icon: HomeRegular },
    { to: '/auctions', label: 'Auctions', icon: GavelRegular },
    { to: '/bidders', label: 'Bidders', icon: PeopleRegular },
    ...(may('legal:view') ? [{ to: '/legal', label: 'Legal', icon: ScalesRegular }] : []),
    ...(!has('inventory') || may('inventory:view')
      ? [{ to: '/inventory', label: 'Inventory', icon: BoxRegular }]
      : []),
    ...(!has('payments') || may('payments:view')
      ? [{ to: '/payments', label: 'Payments', icon: PaymentRegular }]
      : []),
    ...(may('data:import')
      ? [{ to: '/data-upload', label: 'Data Processing', icon: CloudArrowUpRegular }]
      : []),
    { to: '/help', label: 'Help', icon: QuestionCircleRegular },
    { to: '/security', label: 'Security & Users', icon: ShieldPersonRegular },
    { to: '/settings', label: 'Account Settings', icon: SettingsRegular },
  ];
}
