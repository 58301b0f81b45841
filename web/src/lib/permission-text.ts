import { permissionCatalogue, type Permission } from '@contracts/identity/permissions';

/** A permission as the Users screen names it: "Edit bidders". */
export const permissionLabel = (permission: Permission) => permissionCatalogue[permission];

/** Why a control is off for someone: "Needs the Edit bidders permission". */
export const needsPermission = (permission: Permission) =>
  `Needs the ${permissionLabel(permission)} permission`;
