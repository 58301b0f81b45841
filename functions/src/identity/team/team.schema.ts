import { z } from 'zod';
import { houseAccessSchema } from '../accounts/accounts.schema.js';
import {
  assignableRoleSchema,
  emailSchema,
  etagSchema,
  permissionSchema,
  roleSchema,
  trimmed,
} from '../shared/common.schema.js';

/** Contracts of the team: members, invitations, roles and house access. */

export const DEFAULT_ACTIVITY_DAYS = 30;

export const memberStatusSchema = z.enum(['active', 'pending', 'suspended']);
/** A member or a pending invitation; `etag` is the membership's (or invitation's) record. */
export const teamMemberSchema = z.object({
  id: z.string(),
  kind: z.enum(['member', 'invitation']),
  name: z.string(),
  email: z.string(),
  accountRole: roleSchema,
  auctionHouseAccess: z.array(houseAccessSchema),
  permissions: z.array(z.string()),
  mfa: z.object({ enabled: z.boolean() }),
  status: memberStatusSchema,
  lastLoginAt: z.string().nullable(),
  invitedAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  etag: etagSchema,
});
export type TeamMember = z.infer<typeof teamMemberSchema>;
export const teamResponseSchema = z.object({ users: z.array(teamMemberSchema) });

export const inviteRequestSchema = z.object({
  email: emailSchema,
  role: assignableRoleSchema.default('staff'),
  permissions: z.array(permissionSchema).max(200).default([]),
  personalMessage: trimmed(1000).optional(),
  auctionHouseIds: z.array(z.string().min(1)).max(200).optional(),
});
export type InviteRequest = z.infer<typeof inviteRequestSchema>;
export const invitationViewSchema = z.object({
  id: z.string(),
  email: z.string(),
  role: assignableRoleSchema,
  expiresAt: z.string(),
  auctionHouseIds: z.array(z.string()),
});
export type InvitationView = z.infer<typeof invitationViewSchema>;
export const roleChangeSchema = z.object({
  role: assignableRoleSchema,
  permissions: z.array(permissionSchema).max(200).optional(),
  houseId: z.string().min(1).optional(),
});
export type RoleChange = z.infer<typeof roleChangeSchema>;
export const houseAssignmentSchema = z.object({
  userId: z.string().min(1),
  houseId: z.string().min(1),
  role: assignableRoleSchema.optional(),
});
export const inviteToHouseSchema = z.object({
  email: emailSchema,
  houseId: z.string().min(1),
  role: assignableRoleSchema.default('staff'),
  personalMessage: trimmed(1000).optional(),
});
export const houseAccessUpdateSchema = z.object({
  houses: z
    .array(
      z.object({
        houseId: z.string().min(1),
        role: assignableRoleSchema,
        permissions: z.array(permissionSchema).max(200).optional(),
      }),
    )
    .max(200)
    .refine(
      (grants) => new Set(grants.map((grant) => grant.houseId)).size === grants.length,
      'names a house more than once',
    ),
});
export type HouseAccessGrant = z.infer<typeof houseAccessUpdateSchema>['houses'][number];
/** How the member is named in this account's team lists. */
export const memberUpdateSchema = z.object({ name: trimmed(200).min(1, 'is required') });
export const activityQuerySchema = z.object({
  days: z.coerce.number().int().min(1).max(365).default(DEFAULT_ACTIVITY_DAYS),
});
export const activityEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  action: z.string(),
  entity: z.object({ type: z.string(), id: z.string() }),
});
export const activityResponseSchema = z.object({
  days: z.number().int(),
  activity: z.array(activityEntrySchema),
});

export const invitationTokenParamsSchema = z.object({ token: z.string().min(10).max(200) });
export const invitationValidationSchema = z.object({
  valid: z.literal(true),
  email: z.string(),
  accountName: z.string(),
  role: roleSchema,
  invitedBy: z.string(),
  expiresAt: z.string(),
  existingUser: z.boolean(),
});

export const permissionCatalogueSchema = z.object({
  permissions: z.array(z.object({ key: z.string(), label: z.string(), area: z.string() })),
  roles: z.array(
    z.object({
      role: roleSchema,
      label: z.string(),
      description: z.string(),
      permissions: z.array(z.string()),
    }),
  ),
});
