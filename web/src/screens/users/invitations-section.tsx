import { useState } from 'preact/hooks';
import { del, get, post, seg } from '../../api/client';
import type { Invitation, Role } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { Button, Empty, ErrorBox, SelectField, TextField } from '../../components/ui';
import { copyText } from '../../lib/copy';
import { formatDate } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';
import { ROLE_OPTIONS } from './roles';

/** Invite by email: the link is shown once (only its hash is kept); pending invitations can be revoked. */
export function InvitationsSection(props: { onJoined: () => void }) {
  const pending = useAsync(() => get<{ invitations: Invitation[] }>('/api/invitations'), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const action = useAction();

  const invite = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() => post<{ invitation: Invitation; url: string }>('/api/invitations', { email, role }));
    if (!answer) return;
    // The dashboard's own address, in case the service is reached under another name than the API saw.
    setLink({ email: answer.invitation.email, url: `${location.origin}/invitation${new URL(answer.url).hash}` });
    setEmail('');
    pending.reload();
    props.onJoined();
  };
  const revoke = async (invitation: Invitation) => {
    if (!(await confirmAction(`Revoke the invitation of ${invitation.email}? Its link stops working.`, { confirmLabel: 'Revoke' }))) return;
    if (await action.run(() => del(`/api/invitations/${seg(invitation.id)}`))) { announce('Invitation revoked'); pending.reload(); }
  };

  return (
    <section class="card" aria-labelledby="invite-title">
      <h2 id="invite-title">Invite someone</h2>
      <form class="inline-form" onSubmit={invite}>
        <TextField label="Email" type="email" value={email} onValue={setEmail} required autoComplete="off" />
        <SelectField label="Role" value={role} onValue={(value) => setRole(value as Role)} options={ROLE_OPTIONS} />
        <button type="submit" class="btn primary" disabled={action.busy}>Create invitation link</button>
      </form>
      {link && (
        <div class="secret-once" role="region" aria-labelledby="invite-link-label">
          <label id="invite-link-label" for="invite-link">Invitation link for {link.email}: send it to them now, it will not be shown again</label>
          <div class="input-with-button">
            <input id="invite-link" readOnly value={link.url} spellcheck={false} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
            <Button onClick={() => void copyText(link.url, 'Invitation link')}>Copy</Button>
            <Button variant="ghost" onClick={() => setLink(null)}>Done</Button>
          </div>
        </div>
      )}
      <ErrorBox error={action.error} />
      <h3>Pending invitations</h3>
      <ErrorBox error={pending.error} onRetry={pending.reload} />
      {pending.data && pending.data.invitations.length === 0 && <Empty>No invitation is pending.</Empty>}
      {pending.data && pending.data.invitations.length > 0 && (
        <ul class="plain-list" aria-label="Pending invitations">
          {pending.data.invitations.map((invitation) => (
            <li key={invitation.id} class="row-between">
              <span><strong>{invitation.email}</strong> <span class="badge">{invitation.role}</span> <span class="muted">expires {formatDate(invitation.expiresAt)}</span></span>
              <Button variant="ghost" class="danger-text" aria-label={`Revoke the invitation of ${invitation.email}`} onClick={() => void revoke(invitation)}>Revoke</Button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
