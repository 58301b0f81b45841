import { activeMembers, membersHolding } from '../../identity/team/team.service.js';
import { writeAudit } from '../../platform/audit.js';
import type { AccountScope, RequestContext } from '../../platform/context.js';
import { isConflict, isStale } from '../../platform/cosmos-errors.js';
import { preconditionFailed } from '../../platform/errors.js';
import { validationError } from '../../platform/validation.js';
import type { Person } from '../legal.schema.js';
import {
  LEGAL_SETTINGS_ID,
  findLegalSettings,
  saveLegalSettings,
  type LegalSettingsRecord,
} from './rules.repo.js';
import type { DepartmentHead, LegalSettings, LegalSettingsInput } from './rules.schema.js';

/** Whoever may escalate cases: the department head until the account names one. */
const ESCALATE = 'legal:escalate';
const DEFAULT_HEAD: DepartmentHead = { type: 'escalators' };

const etagOf = (record: Pick<LegalSettingsRecord, 'revision'> | undefined) =>
  `${LEGAL_SETTINGS_ID}-r${record?.revision ?? 0}`;

/** Who the department head is today, and whether the setting fell back for lack of anyone. */
async function resolveHeads(
  scope: AccountScope,
  head: DepartmentHead,
): Promise<{ heads: Person[]; fallback: boolean }> {
  if (head.type !== 'escalators') {
    const members = await activeMembers(scope);
    const named = members
      .filter((member) =>
        head.type === 'role' ? member.role === head.role : member.id === head.userId,
      )
      .map(({ id, name }) => ({ id, name }));
    if (named.length) return { heads: named, fallback: false };
    return { heads: await membersHolding(scope, ESCALATE), fallback: true };
  }
  return { heads: await membersHolding(scope, ESCALATE), fallback: false };
}

/** The legal department head, as Critical cases' updates reach them (spec 4.2). */
export async function departmentHeads(scope: AccountScope): Promise<Person[]> {
  const found = await findLegalSettings(scope);
  return (await resolveHeads(scope, found?.departmentHead ?? DEFAULT_HEAD)).heads;
}

async function view(scope: AccountScope, record: LegalSettingsRecord | undefined) {
  const departmentHead = record?.departmentHead ?? DEFAULT_HEAD;
  return {
    departmentHead,
    ...(await resolveHeads(scope, departmentHead)),
    updatedAt: record?.updatedAt ?? null,
    updatedBy: record?.updatedBy ?? null,
    etag: etagOf(record),
  } satisfies LegalSettings;
}

export async function legalSettings(ctx: RequestContext): Promise<LegalSettings> {
  return view(ctx.scope, await findLegalSettings(ctx.scope));
}

const stale = () =>
  preconditionFailed('Someone else changed the legal settings; reload them to see their changes');

/** Names the department head: a role, one active member, or everyone who may escalate. */
export async function updateLegalSettings(
  ctx: RequestContext,
  input: LegalSettingsInput,
  ifMatch: string,
): Promise<LegalSettings> {
  const head = input.departmentHead;
  if (head.type === 'member') {
    const members = await activeMembers(ctx.scope);
    if (!members.some((member) => member.id === head.userId)) {
      throw validationError([
        {
          location: 'body',
          field: 'departmentHead.userId',
          message: 'is not an active member of this account',
        },
      ]);
    }
  }
  const current = await findLegalSettings(ctx.scope);
  if (ifMatch !== etagOf(current)) throw stale();
  const by = ctx.actor.kind === 'system' ? null : { id: ctx.actor.userId, name: ctx.actor.name };
  const record: Omit<LegalSettingsRecord, 'accountId'> = {
    id: LEGAL_SETTINGS_ID,
    kind: 'legalSettings',
    departmentHead: head,
    revision: (current?.revision ?? 0) + 1,
    updatedAt: new Date().toISOString(),
    updatedBy: by,
  };
  try {
    const saved = await saveLegalSettings(ctx.scope, record, current?._etag);
    await writeAudit(ctx, {
      action: 'legal_settings.update',
      entity: { type: 'legal_settings', id: LEGAL_SETTINGS_ID },
      ...(current ? { before: { departmentHead: current.departmentHead } } : {}),
      after: { departmentHead: head },
    });
    return view(ctx.scope, saved);
  } catch (error) {
    // Someone saved between our read and write: their change stands, ours is refused.
    if (isStale(error) || isConflict(error)) throw stale();
    throw error;
  }
}
