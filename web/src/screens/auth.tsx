import { useState } from 'preact/hooks';
import { post } from '../api/client';
import { ErrorBox, TextField } from '../components/ui';
import { useAction } from '../lib/use-async';

/** First-time setup (creates the admin, who is then logged in) or login. */
export function AuthScreen(props: { mode: 'setup' | 'login'; reason?: string; onDone: () => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const setup = props.mode === 'setup';

  const submit = async (event: Event) => {
    event.preventDefault();
    const ok = await action.run(() => (setup
      ? post('/api/auth/setup', { name, email, password }, { quiet401: true })
      : post('/api/auth/login', { email, password }, { quiet401: true })));
    if (ok) props.onDone();
  };

  return (
    <main id="main" class="auth">
      <form class="card auth-card" onSubmit={submit} aria-labelledby="auth-title">
        <p class="brand" aria-hidden="true">taskloom</p>
        <h1 id="auth-title">{setup ? 'Create the admin account' : 'Log in'}</h1>
        {setup && <p class="muted">This is a new taskloom. The account you create here administers it.</p>}
        {props.reason && <p class="notice" role="status">{props.reason}</p>}
        {setup && <TextField label="Name" value={name} onValue={setName} required autoComplete="name" />}
        <TextField label="Email" type="email" value={email} onValue={setEmail} required autoComplete="username" />
        <TextField label="Password" type="password" value={password} onValue={setPassword} required
          minLength={setup ? 8 : 1} autoComplete={setup ? 'new-password' : 'current-password'}
          hint={setup ? 'At least 8 characters.' : undefined} />
        <ErrorBox error={action.error} />
        <button type="submit" class="btn primary" disabled={action.busy} aria-busy={action.busy || undefined}>
          {setup ? 'Create account' : 'Log in'}
        </button>
      </form>
    </main>
  );
}
