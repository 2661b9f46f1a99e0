import { useEffect, useRef } from 'preact/hooks';
import type { User } from './api/types';
import { linkClick, match, navigate, useLocation } from './lib/router';
import { lazyScreen } from './lib/lazy-screen';
import { isAdmin } from './lib/role';
import { TasksScreen } from './screens/tasks';
import { NewMonitorScreen } from './screens/new-monitor';

// The task list is the first screen; every other screen is its own chunk, fetched when first shown.
const BrowserStatesScreen = lazyScreen(() => import('./screens/browser-states').then((m) => m.BrowserStatesScreen));
const CapturesScreen = lazyScreen(() => import('./screens/captures').then((m) => m.CapturesScreen));
const ExecutionDetail = lazyScreen(() => import('./screens/executions/execution-detail').then((m) => m.ExecutionDetail));
const ExecutionsScreen = lazyScreen(() => import('./screens/executions/executions-list').then((m) => m.ExecutionsScreen));
const HeadfulScreen = lazyScreen(() => import('./screens/headful').then((m) => m.HeadfulScreen));
const OverviewScreen = lazyScreen(() => import('./screens/overview').then((m) => m.OverviewScreen));
const StudioScreen = lazyScreen(() => import('./screens/studio/studio-screen').then((m) => m.default));
const SettingsScreen = lazyScreen(() => import('./screens/settings/settings').then((m) => m.SettingsScreen));
const UsersScreen = lazyScreen(() => import('./screens/users/users-screen').then((m) => m.UsersScreen));
const TaskEditor = lazyScreen(() => import('./screens/editor/task-editor').then((m) => m.TaskEditor));

const NAV = [
  { href: '/overview', label: 'Overview' },
  { href: '/tasks', label: 'Tasks' },
  { href: '/executions', label: 'Executions' },
  { href: '/captures', label: 'Captures' },
  { href: '/studio', label: 'Studio' },
  { href: '/settings', label: 'Settings' },
  { href: '/headful', label: 'Headful' },
  { href: '/browser-states', label: 'Browser states' },
  { href: '/users', label: 'Users', adminOnly: true },
];

function route(path: string, user: User) {
  let params;
  if (path === '/' || path === '') return { key: 'tasks', view: <TasksScreen /> };
  if (path === '/tasks') return { key: 'tasks', view: <TasksScreen /> };
  if (path === '/tasks/new') return { key: 'editor:new', view: <TaskEditor /> };
  if (path === '/tasks/new-monitor') return { key: 'new-monitor', view: <NewMonitorScreen /> };
  if ((params = match('/tasks/:id', path))) return { key: `editor:${params.id}`, view: <TaskEditor id={params.id} /> };
  if (path === '/overview') return { key: 'overview', view: <OverviewScreen /> };
  if (path === '/executions') return { key: 'executions', view: <ExecutionsScreen /> };
  if ((params = match('/executions/:id', path))) return { key: `execution:${params.id}`, view: <ExecutionDetail id={params.id!} /> };
  if (path === '/studio') return { key: 'studio', view: <StudioScreen /> };
  if (path === '/captures') return { key: 'captures', view: <CapturesScreen /> };
  if (path === '/settings') return { key: 'settings', view: <SettingsScreen /> };
  if (path === '/headful') return { key: 'headful', view: <HeadfulScreen /> };
  if (path === '/browser-states') return { key: 'browser-states', view: <BrowserStatesScreen /> };
  if (path === '/users') return { key: 'users', view: <UsersScreen currentUserId={user.id} /> };
  return {
    key: 'missing',
    view: (
      <section>
        <h1>Page not found</h1>
        <p>Nothing lives at <code>{path}</code>. <a href="/tasks" onClick={linkClick}>Go to the tasks</a>.</p>
      </section>
    ),
  };
}

/** The signed-in layout: navigation, the current screen, the user and logout. */
export function Shell(props: { user: User; onLogout: () => void }) {
  const { path } = useLocation();
  const current = route(path, props.user);
  const main = useRef<HTMLElement>(null);
  const first = useRef(true);

  useEffect(() => {
    if (path === '/') navigate('/tasks', { replace: true });
  }, [path]);
  // Moving to another screen puts focus on its content, as a page load would.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    main.current?.focus();
  }, [current.key]);

  return (
    <div class="shell">
      <a class="skip" href="#main">Skip to content</a>
      <header class="topbar">
        <a class="brand" href="/tasks" onClick={linkClick}>taskloom</a>
        <nav aria-label="Main">
          <ul>
            {NAV.filter((item) => !item.adminOnly || isAdmin()).map((item) => {
              const active = path === item.href || path.startsWith(`${item.href}/`) || (item.href === '/tasks' && path === '/');
              return (
                <li key={item.href}>
                  <a href={item.href} onClick={linkClick} aria-current={active ? 'page' : undefined}>{item.label}</a>
                </li>
              );
            })}
          </ul>
        </nav>
        <div class="user">
          <span class="muted" title={props.user.email}>{props.user.name}{props.user.role && props.user.role !== 'admin' && <> ({props.user.role})</>}</span>
          <button type="button" class="btn ghost" onClick={props.onLogout}>Log out</button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1} key={current.key}>
        {current.view}
      </main>
    </div>
  );
}
