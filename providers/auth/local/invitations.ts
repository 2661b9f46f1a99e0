import crypto from 'node:crypto';
import type { AccountAdmin, Invitation } from '../../../kernel/contracts/auth.js';
import type { Role, UserRecord } from '../../../kernel/contracts/records.js';
import type { StorageProvider } from '../../../kernel/contracts/storage.js';
import { Errors } from '../../../kernel/errors.js';
import { openSession } from './sessions.js';

/** A team's invitations are few: they live in one settings value, changed atomically (shared by every instance). */
const SETTING = 'auth.invitations';
/** Invitations that ended are kept this long past their expiry, so their link is refused saying why. */
const KEEP_ENDED_MS = 30 * 24 * 60 * 60 * 1000;

/** How an invitation is kept: a SHA-256 of its token's secret, never the token; pending until accepted, revoked or expired. */
interface InvitationRecord extends Invitation {
  tokenHash: string;
  acceptedAt?: string;
  revokedAt?: string;
}

type Insert = (input: { name: string; email: string; password: string; role: Role }) => Promise<UserRecord>;
type InvitationMembers = Pick<AccountAdmin, 'invite' | 'invitations' | 'revokeInvitation' | 'acceptInvitation'>;

const digest = (secret: string) => crypto.createHash('sha256').update(secret).digest();
const isPending = (record: InvitationRecord, now: number) => !record.acceptedAt && !record.revokedAt && Date.parse(record.expiresAt) > now;
const toInvitation = ({ tokenHash: _hash, acceptedAt: _accepted, revokedAt: _revoked, ...shown }: InvitationRecord): Invitation => shown;

/** Why an invitation can no longer be accepted, or undefined while it is pending. */
function unusable(record: InvitationRecord, now: number): string | undefined {
  if (record.acceptedAt) return 'was used already';
  if (record.revokedAt) return 'was revoked';
  if (Date.parse(record.expiresAt) <= now) return `expired at ${record.expiresAt}`;
  return undefined;
}

/**
 * Invitations of the local provider. The token is `<id>.<secret>`: the id finds the invitation, the secret is
 * compared in constant time with the stored SHA-256 (a 256-bit random secret needs no slow hash).
 */
export function createInvitations(storage: StorageProvider, insert: Insert): InvitationMembers {
  const all = async () => (await storage.settings.get<InvitationRecord[]>(SETTING)) ?? [];
  const change = (edit: (records: InvitationRecord[]) => InvitationRecord[]) =>
    storage.settings.update<InvitationRecord[]>(SETTING, (current) => {
      const now = Date.now();
      return edit((current ?? []).filter((r) => isPending(r, now) || Date.parse(r.expiresAt) + KEEP_ENDED_MS > now));
    });

  /** The invitation `token` names, checked against its hash; INVITATION_NOT_FOUND otherwise. */
  async function named(token: string): Promise<InvitationRecord> {
    const [id, secret, extra] = token.split('.');
    const record = id && secret && extra === undefined ? (await all()).find((r) => r.id === id) : undefined;
    const expected = Buffer.from(record?.tokenHash ?? '', 'hex');
    const actual = digest(secret ?? '');
    if (!record || expected.length !== actual.length || !crypto.timingSafeEqual(expected, actual)) throw Errors.INVITATION_NOT_FOUND();
    return record;
  }

  /** Marks the invitation accepted (or takes that back), atomically: of two accepting at once, one wins. */
  async function mark(id: string, acceptedAt: string | undefined): Promise<string | undefined> {
    let refusal: string | undefined;
    await change((records) => records.map((r) => {
      if (r.id !== id) return r;
      if (acceptedAt === undefined) return { ...r, acceptedAt: undefined };
      refusal = unusable(r, Date.now());
      return refusal ? r : { ...r, acceptedAt };
    }));
    return refusal;
  }

  return {
    async invite({ email, role, expiresInMs, invitedBy }) {
      const address = email.trim().toLowerCase();
      if (await storage.users.findByEmail(address)) throw Errors.EMAIL_TAKEN({ email: address });
      const secret = crypto.randomBytes(32).toString('base64url');
      const now = Date.now();
      const record: InvitationRecord = {
        id: `inv_${crypto.randomBytes(9).toString('base64url')}`, email: address, role, tokenHash: digest(secret).toString('hex'),
        createdAt: new Date(now).toISOString(), expiresAt: new Date(now + expiresInMs).toISOString(), ...(invitedBy ? { invitedBy } : {}),
      };
      let taken = false;
      await change((records) => {
        taken = records.some((r) => r.email === address && isPending(r, now));
        return taken ? records : [...records, record];
      });
      if (taken) throw Errors.EMAIL_TAKEN({ email: address });
      return { invitation: toInvitation(record), token: `${record.id}.${secret}` };
    },

    async invitations() {
      const now = Date.now();
      return (await all()).filter((r) => isPending(r, now)).map(toInvitation);
    },

    async revokeInvitation(id) {
      let revoked = false;
      await change((records) => records.map((r) => {
        if (r.id !== id || !isPending(r, Date.now())) return r;
        revoked = true;
        return { ...r, revokedAt: new Date().toISOString() };
      }));
      if (!revoked) throw Errors.INVITATION_NOT_FOUND();
    },

    async acceptInvitation(token, { name, password }) {
      const record = await named(token);
      const early = unusable(record, Date.now());
      if (early) throw Errors.INVITATION_UNUSABLE({ reason: early });
      const refusal = await mark(record.id, new Date().toISOString());
      if (refusal) throw Errors.INVITATION_UNUSABLE({ reason: refusal });
      let user: UserRecord;
      try {
        user = await insert({ name, email: record.email, password, role: record.role });
      } catch (error) {
        await mark(record.id, undefined);
        throw error;
      }
      return openSession(storage, user);
    },
  };
}
