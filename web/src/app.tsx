import { useCallback, useEffect, useState } from 'preact/hooks';
import { get, onUnauthorized, post } from './api/client';
import type { User } from './api/types';
import { Announcer, ConfirmHost } from './components/dialogs';
import { ErrorBox, Loading } from './components/ui';
import { applyTheme } from './lib/theme';
import { confirmLeave, navigate } from './lib/router';
import { setCurrentRole } from './lib/role';
import { AcceptInvitationScreen, invitationToken } from './screens/accept-invitation';
import { AuthScreen } from './screens/auth';
import { Shell } from './shell';

type Session =
  | { state: 'loading' }
  | { state: 'failed'; error: unknown }
  | { state: 'setup' }
  | { state: 'login'; reason?: string }
  | { state: 'in'; user: User };

/** Decides between first-time setup, login and the dashboard. */
export function App() {
  const [session, setSession] = useState<Session>({ state: 'loading' });
  const [invitation, setInvitation] = useState(invitationToken);

  const check = useCallback(async (reason?: string) => {
    try {
      const { setupRequired } = await get<{ setupRequired: boolean }>('/api/auth/check-setup', { quiet401: true });
      if (setupRequired) return setSession({ state: 'setup' });
      try {
        const { user } = await get<{ user: User }>('/api/auth/me', { quiet401: true });
        setCurrentRole(user.role);
        setSession({ state: 'in', user });
        get<{ theme: string }>('/api/settings/theme').then((t) => applyTheme(t.theme), () => undefined);
      } catch {
        setSession({ state: 'login', reason });
      }
    } catch (error) {
      setSession({ state: 'failed', error });
    }
  }, []);

  useEffect(() => void check(), [check]);
  useEffect(() => onUnauthorized((error) => {
    if (error.code === 'SETUP_REQUIRED') setSession({ state: 'setup' });
    else setSession((s) => (s.state === 'in' ? { state: 'login', reason: 'Your session has ended: log in again.' } : s));
  }), []);

  const logout = async () => {
    if (!(await confirmLeave())) return;
    try {
      await post('/api/auth/logout', undefined, { quiet401: true });
    } catch {
      // the session is gone either way
    }
    setSession({ state: 'login', reason: 'You are logged out.' });
    navigate('/', { replace: true, force: true });
  };

  let content;
  if (invitation) {
    content = <AcceptInvitationScreen token={invitation} onDone={() => { setInvitation(undefined); void check(); }} />;
  } else switch (session.state) {
    case 'loading':
      content = <main id="main" class="center"><Loading /></main>;
      break;
    case 'failed':
      content = <main id="main" class="center"><ErrorBox error={session.error} onRetry={() => void check()} /></main>;
      break;
    case 'setup':
    case 'login':
      content = <AuthScreen mode={session.state} reason={session.state === 'login' ? session.reason : undefined} onDone={() => void check()} />;
      break;
    case 'in':
      content = <Shell user={session.user} onLogout={logout} />;
  }
  return (
    <>
      {content}
      <ConfirmHost />
      <Announcer />
    </>
  );
}
