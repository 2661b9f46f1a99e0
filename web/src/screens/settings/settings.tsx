import { Fragment, type ComponentChildren } from 'preact';
import { PageHeader } from '../../components/ui';
import { canChange, currentRole, isAdmin } from '../../lib/role';
import { AiSection } from './ai-section';
import { ApiKeySection } from './api-key-section';
import { NamedKeysSection } from './named-keys-section';
import { AppearanceSection } from './appearance-section';
import { CapacitySection } from './capacity-section';
import { CookiesSection } from './cookies-section';
import { CredentialsSection } from './credentials-section';
import { ProxiesSection } from './proxies-section';
import { WebhooksSection } from './webhooks-section';

/**
 * Each section, who may see it and who may change what it shows (the service's scopes: reading is open to every
 * role; `admin` sections are only read by admins; `change` says which role's controls stay enabled).
 */
interface Section { id: string; label: string; view: 'all' | 'admin'; change: 'admin' | 'editor'; render: () => ComponentChildren }

const SECTIONS: Section[] = [
  { id: 'appearance', label: 'Appearance', view: 'all', change: 'admin', render: () => <AppearanceSection /> },
  { id: 'api-key', label: 'System API key', view: 'admin', change: 'admin', render: () => <ApiKeySection /> },
  { id: 'keys', label: 'API keys', view: 'admin', change: 'admin', render: () => <NamedKeysSection /> },
  { id: 'ai', label: 'AI providers', view: 'admin', change: 'admin', render: () => <AiSection /> },
  { id: 'proxies', label: 'Proxies', view: 'all', change: 'admin', render: () => <ProxiesSection /> },
  { id: 'credentials', label: 'Output credentials', view: 'all', change: 'admin', render: () => <CredentialsSection /> },
  { id: 'webhooks', label: 'Webhooks', view: 'all', change: 'editor', render: () => <WebhooksSection /> },
  { id: 'cookies', label: 'Cookies', view: 'all', change: 'editor', render: () => <CookiesSection /> },
  { id: 'capacity', label: 'Capacity', view: 'all', change: 'editor', render: () => <CapacitySection /> },
];

/**
 * The settings a user's role may read; what it may not change is shown with its controls disabled (a disabled
 * fieldset), so an editor or a viewer meets no refusal from the service for a button they could press.
 */
export function SettingsScreen() {
  const shown = SECTIONS.filter((s) => s.view === 'all' || isAdmin());
  const mayChange = (s: Section) => (s.change === 'admin' ? isAdmin() : canChange());
  return (
    <section aria-labelledby="page-title" class="settings">
      <PageHeader title="Settings" />
      {!isAdmin() && (
        <p class="hint">
          Signed in as {currentRole() === 'viewer' ? 'a viewer' : 'an editor'}: the system API key, API keys and AI providers are for
          admins, and settings you cannot change are shown read only.
        </p>
      )}
      <nav aria-label="Settings sections" class="subnav">
        <ul>{shown.map((s) => <li key={s.id}><a href={`#${s.id}`}>{s.label}</a></li>)}</ul>
      </nav>
      {shown.map((s) => (mayChange(s)
        ? <Fragment key={s.id}>{s.render()}</Fragment>
        : <fieldset key={s.id} class="read-only-section" disabled aria-label={`${s.label} (read only)`}>{s.render()}</fieldset>))}
    </section>
  );
}
