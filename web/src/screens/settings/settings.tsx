import { PageHeader } from '../../components/ui';
import { AiSection } from './ai-section';
import { ApiKeySection } from './api-key-section';
import { NamedKeysSection } from './named-keys-section';
import { AppearanceSection } from './appearance-section';
import { CapacitySection } from './capacity-section';
import { CookiesSection } from './cookies-section';
import { CredentialsSection } from './credentials-section';
import { ProxiesSection } from './proxies-section';
import { WebhooksSection } from './webhooks-section';

const SECTIONS = [
  ['appearance', 'Appearance'], ['api-key', 'System API key'], ['keys', 'API keys'], ['ai', 'AI providers'], ['proxies', 'Proxies'], ['credentials', 'Output credentials'], ['webhooks', 'Webhooks'], ['cookies', 'Cookies'], ['capacity', 'Capacity'],
];

export function SettingsScreen() {
  return (
    <section aria-labelledby="page-title" class="settings">
      <PageHeader title="Settings" />
      <nav aria-label="Settings sections" class="subnav">
        <ul>{SECTIONS.map(([id, label]) => <li key={id}><a href={`#${id}`}>{label}</a></li>)}</ul>
      </nav>
      <AppearanceSection />
      <ApiKeySection />
      <NamedKeysSection />
      <AiSection />
      <ProxiesSection />
      <CredentialsSection />
      <WebhooksSection />
      <CookiesSection />
      <CapacitySection />
    </section>
  );
}
