/**
 * The permission catalogue: every `area:action` key with its label, and the default sets of the
 * admin, staff and viewer roles. The account owner holds every key.
 *
 * The spec (legal-settings-inventory-payments-data §6) names 67 keys with a role, and keys without
 * one (delete, refund, void, settings, api_keys, webhooks, backup, purge, gdpr, data_retention)
 * plus the security and compliance areas. Those 67 are used here by their exact names. The
 * product adds:
 *  - `bidders:merge`: merging duplicates removes one bidder record for good, which is more than
 *    editing either; the spec has no key for it, and staff reviews duplicates;
 *  - `users:security`: the MFA policy and security settings, which the identity spec gives to the
 *    owner and admins of the house ("Security admin tabs: owner or admin"), but not to staff;
 *  - owner-only keys the spec lists without an area: `system:billing` (the subscription),
 *    `security:mfa_manage` and `security:sessions` (other people's MFA and sign-ins), and
 *    `compliance:audit_export`.
 * Role counts, as the spec gives them:
 *  - admin: every key but the owner-only ones = the 67 and the two product keys above = 69;
 *  - staff: admin without the spec's "staff lacks" list. That list names 30 of the 67 keys;
 *    its "data" is read as all bulk import and export (data:*, and the bidder and inventory
 *    import/export keys, as it names auctions' own), and its "users" as every users key. That
 *    leaves 35;
 *  - viewer: the spec's eleven read permissions.
 * The counts are asserted in permissions.test.ts.
 */

export const permissionCatalogue = {
  // Auctions
  'auctions:view': 'View auctions',
  'auctions:create': 'Create auctions',
  'auctions:edit': 'Edit auctions and their lots',
  'auctions:publish': 'Publish auctions',
  'auctions:schedule': 'Schedule auctions',
  'auctions:go_live': 'Take auctions live',
  'auctions:close': 'Close auctions',
  'auctions:duplicate': 'Duplicate auctions',
  'auctions:import': 'Import auctions',
  'auctions:export': 'Export auctions',
  'auctions:analytics': 'View auction analytics',
  'auctions:delete': 'Delete auctions',
  // Bidders
  'bidders:view': 'View bidders',
  'bidders:create': 'Add bidders',
  'bidders:edit': 'Edit bidders',
  'bidders:scoring': 'Configure custom scoring',
  'bidders:scoring_local': 'Set local score overrides',
  'bidders:scoring_national': 'Manage national scoring data',
  'bidders:invite': 'Invite bidders',
  'bidders:communicate': 'Message bidders',
  'bidders:assessment': 'Run bidder assessments',
  'bidders:tier_assign': 'Assign bidder tiers',
  'bidders:history_view': 'View bidder history',
  'bidders:history_edit': 'Add notes to bidder history',
  'bidders:export': 'Export bidders',
  'bidders:bulk_actions': 'Act on many bidders at once',
  'bidders:merge': 'Merge duplicate bidders',
  'bidders:delete': 'Delete bidders',
  // Legal
  'legal:view': 'View legal cases',
  'legal:create': 'File legal cases',
  'legal:edit': 'Update legal cases',
  'legal:workflow': 'Move cases through the workflow',
  'legal:workflow_approve': 'Approve settlements',
  'legal:documents': 'View legal documents',
  'legal:documents_upload': 'Upload legal documents',
  'legal:notifications': 'Receive workflow notifications',
  'legal:escalate': 'Escalate legal cases',
  'legal:reports': 'View legal reports',
  'legal:delete': 'Delete legal cases',
  // Inventory
  'inventory:view': 'View inventory',
  'inventory:create': 'Add inventory items',
  'inventory:edit': 'Edit inventory items',
  'inventory:valuate': 'Valuate items',
  'inventory:authenticate': 'Authenticate items',
  'inventory:conservation': 'Manage conservation',
  'inventory:location_track': 'Track item locations',
  'inventory:condition_update': 'Update item condition',
  'inventory:import': 'Import inventory',
  'inventory:export': 'Export inventory',
  'inventory:bulk_actions': 'Act on many items at once',
  'inventory:delete': 'Delete inventory items',
  // Payments
  'payments:view': 'View payments',
  'payments:process': 'Process payments',
  'payments:dispute': 'Handle payment disputes',
  'payments:reports': 'View payment reports',
  'payments:reconcile': 'Reconcile payments',
  'payments:refund': 'Process refunds',
  'payments:void': 'Void transactions',
  // Users
  'users:view': 'View team members',
  'users:invite': 'Invite users',
  'users:edit': 'Edit and deactivate users',
  'users:roles_assign': 'Change user roles',
  'users:password_reset': "Reset users' passwords",
  'users:security': 'Set the MFA policy and security settings',
  // Data
  'data:export': 'Export data',
  'data:import': 'Import data',
  'data:purge': 'Purge data',
  // Communications
  'communications:email': 'Send email',
  'communications:sms': 'Send text messages',
  'communications:broadcast': 'Broadcast messages',
  'communications:templates': 'Manage message templates',
  // System
  'system:reports': 'View system reports',
  'system:reports_financial': 'View financial reports',
  'system:reports_operational': 'View operational reports',
  'system:audit': 'View the audit log',
  'system:integrations': 'Manage platform integrations',
  'system:settings': 'Change account settings',
  'system:billing': 'Manage the subscription',
  'system:api_keys': 'Manage API keys',
  'system:webhooks': 'Manage webhooks',
  'system:backup': 'Manage backups',
  // Security
  'security:mfa_manage': "Manage other users' MFA",
  'security:sessions': "Revoke other users' sessions",
  // Compliance
  'compliance:gdpr': 'Handle GDPR requests',
  'compliance:data_retention': 'Set data retention',
  'compliance:audit_export': 'Export the audit log',
} as const satisfies Record<`${string}:${string}`, string>;

export type Permission = keyof typeof permissionCatalogue;

export const allPermissions = Object.keys(permissionCatalogue) as Permission[];

/** Held by the account owner only. */
export const ownerOnlyPermissions: readonly Permission[] = [
  'auctions:delete',
  'bidders:delete',
  'legal:delete',
  'inventory:delete',
  'payments:refund',
  'payments:void',
  'data:purge',
  'system:settings',
  'system:billing',
  'system:api_keys',
  'system:webhooks',
  'system:backup',
  'security:mfa_manage',
  'security:sessions',
  'compliance:gdpr',
  'compliance:data_retention',
  'compliance:audit_export',
];

/** What staff lacks of the admin set, as the spec lists it (see the note at the top). */
const staffLacks: readonly Permission[] = [
  'auctions:publish',
  'auctions:go_live',
  'auctions:close',
  'auctions:import',
  'auctions:export',
  'bidders:scoring',
  'bidders:scoring_local',
  'bidders:scoring_national',
  'bidders:tier_assign',
  'bidders:export',
  'legal:workflow_approve',
  'legal:escalate',
  'legal:reports',
  'inventory:valuate',
  'inventory:authenticate',
  'inventory:conservation',
  'inventory:import',
  'inventory:export',
  'payments:process',
  'payments:dispute',
  'payments:reconcile',
  'users:view',
  'users:invite',
  'users:edit',
  'users:roles_assign',
  'users:password_reset',
  'users:security',
  'data:import',
  'data:export',
  'communications:broadcast',
  'communications:templates',
  'system:reports_financial',
  'system:audit',
  'system:integrations',
];

const adminPermissions = allPermissions.filter(
  (permission) => !ownerOnlyPermissions.includes(permission),
);

export const roleNames = ['owner', 'admin', 'staff', 'viewer'] as const;
export type RoleName = (typeof roleNames)[number];
export type AssignableRole = Exclude<RoleName, 'owner'>;

export const rolePermissions: Record<AssignableRole, readonly Permission[]> = {
  admin: adminPermissions,
  staff: adminPermissions.filter((permission) => !staffLacks.includes(permission)),
  viewer: [
    'auctions:view',
    'auctions:analytics',
    'bidders:view',
    'bidders:history_view',
    'legal:view',
    'legal:documents',
    'inventory:view',
    'payments:view',
    'payments:reports',
    'system:reports',
    'system:reports_operational',
  ],
};

export const roleDescriptions: Record<RoleName, string> = {
  owner: 'Account owner with every permission, including critical system changes.',
  admin: 'Full operational access with user management, except critical system changes.',
  staff:
    'Operational access to auctions, bidders, inventory and basic legal cases; cannot manage users or system settings.',
  viewer: 'Read-only access with basic reports.',
};

export const roleLabels: Record<RoleName, string> = {
  owner: 'Owner',
  admin: 'Administrator',
  staff: 'Staff Member',
  viewer: 'Viewer',
};

/** The permissions a role holds by default (the owner holds all). */
export function defaultPermissions(role: RoleName): Permission[] {
  return role === 'owner' ? [...allPermissions] : [...rolePermissions[role]];
}

export const isPermission = (value: string): value is Permission => value in permissionCatalogue;

/**
 * Keys stored on memberships before the catalogue took the spec's names, and what each became;
 * read through `currentPermissions`, so accounts saved earlier keep what they were given.
 */
const renamed: Record<string, Permission> = {
  'bidders:history': 'bidders:history_view',
  'bidders:notes': 'bidders:history_edit',
  'bidders:score_override': 'bidders:scoring_local',
  'bidders:national_scoring': 'bidders:scoring_national',
  'auctions:lots': 'auctions:edit',
  'auctions:assess': 'bidders:assessment',
  'legal:approve': 'legal:workflow_approve',
  'legal:notes': 'legal:edit',
  'inventory:photos': 'inventory:edit',
  'inventory:locations': 'inventory:location_track',
  'payments:create': 'payments:process',
  'payments:invoices': 'payments:process',
  'users:roles': 'users:roles_assign',
  'users:deactivate': 'users:edit',
  'data:upload': 'data:import',
  'data:conflicts': 'data:import',
  'data:history': 'data:import',
  'communications:send': 'communications:email',
  'system:operational_reports': 'system:reports_operational',
  'system:financial_reports': 'system:reports_financial',
};

/** A stored permission list in today's names, without keys the catalogue no longer has. */
export function currentPermissions(stored: readonly string[]): Permission[] {
  const keys = stored.flatMap((key) =>
    isPermission(key) ? [key] : renamed[key] ? [renamed[key]] : [],
  );
  return [...new Set(keys)];
}
