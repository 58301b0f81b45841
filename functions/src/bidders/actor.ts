import type { Principal } from '../platform/principal.js';

/** Who made a change, as notes and audit entries record it. */
export interface Actor {
  userId: string;
  name: string;
}

export const actorOf = (principal: Principal): Actor => ({
  userId: principal.userId,
  name: principal.name,
});
