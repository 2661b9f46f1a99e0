import { useState } from 'preact/hooks';
import { post } from '../../api/client';
import type { ManagedUser, Role } from '../../api/types';
import { announce } from '../../components/dialogs';
import { ErrorBox, SelectField, TextField } from '../../components/ui';
import { useAction } from '../../lib/use-async';
import { ROLE_OPTIONS } from './roles';

/** Adds a user with a password the admin chooses (and tells them by other means). */
export function AddUserSection(props: { onAdded: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const action = useAction();

  const add = async (event: Event) => {
    event.preventDefault();
    const answer = await action.run(() => post<{ user: ManagedUser }>('/api/users', { name, email, password, role }));
    if (!answer) return;
    announce(`${answer.user.name} added as ${answer.user.role}`);
    setName(''); setEmail(''); setPassword('');
    props.onAdded();
  };

  return (
    <section class="card" aria-labelledby="add-user-title">
      <h2 id="add-user-title">Add a user with a password</h2>
      <form onSubmit={add}>
        <div class="grid-2">
          <TextField label="Name" value={name} onValue={setName} required autoComplete="off" />
          <TextField label="Email" type="email" value={email} onValue={setEmail} required autoComplete="off" />
        </div>
        <div class="grid-2">
          <TextField label="Password" type="password" value={password} onValue={setPassword} required minLength={8} autoComplete="new-password" hint="At least 8 characters." />
          <SelectField label="Role" value={role} onValue={(value) => setRole(value as Role)} options={ROLE_OPTIONS} />
        </div>
        <ErrorBox error={action.error} />
        <button type="submit" class="btn primary" disabled={action.busy}>Add user</button>
      </form>
    </section>
  );
}
