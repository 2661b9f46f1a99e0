import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { ErrorBox, TextField } from '../components/ui';
import { useAction } from '../lib/use-async';

/** The token of the invitation link (`/invitation#<token>`): in the fragment, so no server log ever holds it. */
export const invitationToken = (): string | undefined =>
  location.pathname === '/invitation' && location.hash.length > 1 ? decodeURIComponent(location.hash.slice(1)) : undefined;

/** Accepting an invitation: the invitee sets a name and a password and is logged in. */
export function AcceptInvitationScreen(props: { token: string; onDone: () => void }) {
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();

  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await action.run(() => post('/api/invitations/accept', { token: props.token, name, password }, { quiet401: true }));
    if (!ok) return;
    // The link is spent: leave its address (and the token) behind.
    history.replaceState(null, '', '/tasks');
    props.onDone();
  };

  return (
    <main id="main" class="auth">
      <form class="card auth-card" onSubmit={submit} aria-labelledby="accept-title">
        <p class="brand" aria-hidden="true">taskloom</p>
        <h1 id="accept-title">Join taskloom</h1>
        <p class="muted">You were invited. Choose your name and a password; you log in with the email the invitation was sent to.</p>
        <TextField label="Name" value={name} onValue={setName} required autoComplete="name" />
        <TextField label="Password" type="password" value={password} onValue={setPassword} required minLength={8} autoComplete="new-password" hint="At least 8 characters." />
        <ErrorBox error={action.error} />
        <button type="submit" class="btn primary" disabled={action.busy} aria-busy={action.busy || undefined}>Join</button>
        <p class="hint"><a href="/">Already have an account? Log in</a></p>
      </form>
    </main>
  );
}
