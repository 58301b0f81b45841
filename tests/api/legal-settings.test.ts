import { beforeAll, describe, expect, it } from 'vitest';
import type { LegalCase } from '../../functions/src/legal/legal.schema.js';
import type { LegalSettings } from '../../functions/src/legal/rules/rules.schema.js';
import type { NotificationView } from '../../functions/src/notifications/notifications.schema.js';
import { domain, fieldsOf, freshOwner, signedInToken, type Owner } from '../support/bidders.js';
import {
  call,
  demo,
  ifMatch,
  latestMail,
  linkParam,
  signup,
  uniqueEmail,
  type Session,
} from '../support/identity.js';

let house: Owner;
let owner: { id: string; name: string };
let staff: { id: string; token: string };

beforeAll(async () => {
  house = await freshOwner();
  const email = uniqueEmail('legal-head');
  const invited = await call('POST', '/auction-house/invite', {
    token: house.token,
    body: { email, role: 'staff' },
  });
  expect(invited.status, JSON.stringify(invited.body)).toBe(201);
  const code = linkParam(await latestMail(email, 'invitation'), 'invitation');
  const joined = (await signup({ email, invitationCode: code })).body as Session & {
    accessToken: string;
  };
  staff = { id: joined.user.id, token: joined.accessToken };
  const settings = await read();
  owner = settings.heads[0] as { id: string; name: string };
});

async function read(token = house.token) {
  const reply = await domain<LegalSettings>('GET', '/workflows/settings', { token });
  expect(reply.status).toBe(200);
  expect(reply.headers.get('etag')).toBe(`"${reply.body.etag}"`);
  return reply.body;
}

const save = (body: unknown, etag: string | undefined, token = house.token) =>
  domain<LegalSettings>('PUT', '/workflows/settings', {
    token,
    body,
    headers: etag === undefined ? {} : ifMatch(etag),
  });

/** The Critical-case updates the member's bell shows for a case. */
async function escalations(token: string, caseNumber: string) {
  const bell = await domain<{ notifications: NotificationView[] }>('GET', '/notifications', {
    token,
  });
  return bell.body.notifications.filter(
    (notification) =>
      notification.kind === 'legal.critical' && notification.title.includes(caseNumber),
  );
}

async function fileCritical() {
  const reply = await domain<LegalCase>('POST', '/cases', {
    token: house.token,
    body: {
      caseType: 'authenticity_claim',
      category: 'post_sale',
      priority: 'critical',
      title: 'Forged signature',
      jurisdiction: 'New York',
    },
  });
  expect(reply.status, JSON.stringify(reply.body)).toBe(201);
  return reply.body;
}

describe('the legal department head', () => {
  it('is everyone who may escalate until the account names one', async () => {
    const settings = await read();
    expect(settings).toMatchObject({
      departmentHead: { type: 'escalators' },
      fallback: false,
      updatedAt: null,
      etag: 'legal-settings-r0',
    });
    expect(settings.heads.map((head) => head.id)).not.toContain(staff.id);
    expect(settings.heads).toHaveLength(1);
  });

  it('is named by a director only, against the settings as they were read', async () => {
    const { etag } = await read();
    const member = { departmentHead: { type: 'member', userId: staff.id } };
    expect((await save(member, etag, staff.token)).status).toBe(403);
    const viewer = await signedInToken(demo.viewer);
    expect((await save(member, 'x', viewer)).status).toBe(403);
    expect((await save(member, undefined)).status).toBe(428);
    expect(
      fieldsOf(await save({ departmentHead: { type: 'member', userId: 'nobody' } }, etag)),
    ).toEqual(['departmentHead.userId']);
    expect(
      fieldsOf(await save({ departmentHead: { type: 'role', role: 'viewer' } }, etag)),
    ).toEqual(['departmentHead.role']);

    const saved = await save(member, etag);
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body).toMatchObject({
      departmentHead: { type: 'member', userId: staff.id },
      heads: [{ id: staff.id }],
      fallback: false,
      updatedBy: { id: owner.id },
      etag: 'legal-settings-r1',
    });
    expect((await save({ departmentHead: { type: 'escalators' } }, etag)).status).toBe(412);
    expect((await read()).departmentHead).toEqual({ type: 'member', userId: staff.id });
  });

  it('gets every update of a Critical case, and nobody else does', async () => {
    await save({ departmentHead: { type: 'member', userId: staff.id } }, (await read()).etag);
    const filed = await fileCritical();
    expect(await escalations(staff.token, filed.caseNumber)).toHaveLength(1);
    const noted = await domain('POST', `/cases/${filed.id}/notes`, {
      token: house.token,
      body: { text: 'Expert report requested' },
    });
    expect(noted.status).toBe(201);
    expect(await escalations(staff.token, filed.caseNumber)).toHaveLength(2);
  });

  it('falls back to everyone who may escalate when the role has nobody', async () => {
    const saved = await save(
      { departmentHead: { type: 'role', role: 'admin' } },
      (await read()).etag,
    );
    expect(saved.body).toMatchObject({ fallback: true, heads: [{ id: owner.id }] });
    const staffHead = await save(
      { departmentHead: { type: 'role', role: 'staff' } },
      saved.body.etag,
    );
    expect(staffHead.body).toMatchObject({ fallback: false, heads: [{ id: staff.id }] });
  });

  it('is each account’s own', async () => {
    const other = await freshOwner();
    expect((await read(other.token)).departmentHead).toEqual({ type: 'escalators' });
    const mine = await read();
    expect(
      (
        await save(
          { departmentHead: { type: 'member', userId: staff.id } },
          'legal-settings-r0',
          other.token,
        )
      ).status,
    ).toBe(400);
    expect((await read()).etag).toBe(mine.etag);
  });
});
