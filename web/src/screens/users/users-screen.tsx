import { useState } from 'preact/hooks';
import { del, get, patch, seg } from '../../api/client';
import type { ManagedUser, Role } from '../../api/types';
import { announce, confirmAction } from '../../components/dialogs';
import { ErrorBox, Loading, PageHeader } from '../../components/ui';
import { formatDate } from '../../lib/format';
import { useAction, useAsync } from '../../lib/use-async';
import { AddUserSection } from './add-user-section';
import { InvitationsSection } from './invitations-section';
import { ROLE_OPTIONS } from './roles';

/** The team (admins only): each user's role, changed or removed here; new people are invited or added below. */
export function UsersScreen(props: { currentUserId?: string }) {
  const list = useAsync(() => get<{ users: ManagedUser[] }>('/api/users'), []);
  const action = useAction();

  const setRole = async (user: ManagedUser, role: Role) => {
    if (await action.run(() => patch(`/api/users/${seg(user.id)}`, { role }))) announce(`${user.name} is now ${role}`);
    list.reload();
  };
  const remove = async (user: ManagedUser) => {
    if (!(await confirmAction(`Remove ${user.name} (${user.email})? Their sessions end at once.`, { confirmLabel: 'Remove' }))) return;
    if (await action.run(() => del(`/api/users/${seg(user.id)}`))) { announce(`${user.name} removed`); list.reload(); }
  };

  return (
    <section aria-labelledby="page-title">
      <PageHeader title="Users" />
      <p class="hint" id="users-title-hint">Admins do everything; editors work with tasks, runs and schedules; viewers only read.</p>
      <ErrorBox error={list.error} onRetry={list.reload} />
      <ErrorBox error={action.error} />
      {list.loading && !list.data && <Loading />}
      {list.data && (
        <div class="table-wrap">
          <table class="data-table" aria-describedby="users-title-hint">
            <thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Joined</th><th scope="col">Last login</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {list.data.users.map((user) => (
                <tr key={user.id}>
                  <th scope="row">{user.name}{user.id === props.currentUserId && <span class="muted"> (you)</span>}</th>
                  <td>{user.email}</td>
                  <td>
                    <select aria-label={`Role of ${user.name}`} value={user.role} disabled={action.busy}
                      onChange={(e) => void setRole(user, (e.currentTarget as HTMLSelectElement).value as Role)}>
                      {ROLE_OPTIONS.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
                    </select>
                  </td>
                  <td>{formatDate(user.createdAt)}</td>
                  <td>{user.lastLoginAt ? formatDate(user.lastLoginAt) : <span class="muted">never</span>}</td>
                  <td class="row-actions">
                    <button type="button" class="btn ghost danger-text" aria-label={`Remove ${user.name}`} disabled={action.busy} onClick={() => void remove(user)}>Remove</button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <InvitationsSection onJoined={list.reload} />
      <AddUserSection onAdded={list.reload} />
    </section>
  );
}
