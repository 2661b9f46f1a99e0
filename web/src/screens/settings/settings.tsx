import { PageHeader } from '../../components/ui';
import { AiSection } from './ai-section';
import { ApiKeySection } from './api-key-section';
import { AppearanceSection } from './appearance-section';
import { CookiesSection } from './cookies-section';
import { CredentialsSection } from './credentials-section';
import { ProxiesSection } from './proxies-section';

const SECTIONS = [
  ['appearance', 'Appearance'], ['api-key', 'API key'], ['ai', 'AI providers'], ['proxies', 'Proxies'], ['credentials', 'Output credentials'], ['cookies', 'Cookies'],
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
      <AiSection />
      <ProxiesSection />
      <CredentialsSection />
      <CookiesSection />
    </section>
  );
}
