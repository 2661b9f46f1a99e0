import { useEffect, useRef } from 'preact/hooks';
import type { User } from './api/types';
import { linkClick, match, navigate, useLocation } from './lib/router';
import { CapturesScreen } from './screens/captures';
import { ExecutionDetail } from './screens/executions/execution-detail';
import { ExecutionsScreen } from './screens/executions/executions-list';
import { HeadfulScreen } from './screens/headful';
import { SettingsScreen } from './screens/settings/settings';
import { LazyStudio } from './screens/studio/lazy-studio';
import { TaskEditor } from './screens/editor/task-editor';
import { TasksScreen } from './screens/tasks';

const NAV = [
  { href: '/tasks', label: 'Tasks' },
  { href: '/executions', label: 'Executions' },
  { href: '/captures', label: 'Captures' },
  { href: '/studio', label: 'Studio' },
  { href: '/settings', label: 'Settings' },
  { href: '/headful', label: 'Headful' },
];

function route(path: string) {
  let params;
  if (path === '/' || path === '') return { key: 'tasks', view: <TasksScreen /> };
  if (path === '/tasks') return { key: 'tasks', view: <TasksScreen /> };
  if (path === '/tasks/new') return { key: 'editor:new', view: <TaskEditor /> };
  if ((params = match('/tasks/:id', path))) return { key: `editor:${params.id}`, view: <TaskEditor id={params.id} /> };
  if (path === '/executions') return { key: 'executions', view: <ExecutionsScreen /> };
  if ((params = match('/executions/:id', path))) return { key: `execution:${params.id}`, view: <ExecutionDetail id={params.id!} /> };
  if (path === '/studio') return { key: 'studio', view: <LazyStudio /> };
  if (path === '/captures') return { key: 'captures', view: <CapturesScreen /> };
  if (path === '/settings') return { key: 'settings', view: <SettingsScreen /> };
  if (path === '/headful') return { key: 'headful', view: <HeadfulScreen /> };
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
  const current = route(path);
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
            {NAV.map((item) => {
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
          <span class="muted" title={props.user.email}>{props.user.name}</span>
          <button type="button" class="btn ghost" onClick={props.onLogout}>Log out</button>
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1} key={current.key}>
        {current.view}
      </main>
    </div>
  );
}
