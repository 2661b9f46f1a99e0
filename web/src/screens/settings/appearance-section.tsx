import { useState } from 'preact/hooks';
import { get, post } from '../../api/client';
import { THEMES, type Theme } from '../../api/types';
import { announce } from '../../components/dialogs';
import { ErrorBox } from '../../components/ui';
import { applyTheme, THEME_LABELS } from '../../lib/theme';
import { useAction, useAsync } from '../../lib/use-async';

/** Theme (saved server-side and in the `service_theme` cookie) and how "find selector" works. */
export function AppearanceSection() {
  const theme = useAsync(() => get<{ theme: Theme }>('/api/settings/theme'), []);
  const finder = useAsync(() => get<{ selectorFinder: 'highlight' | 'ai' }>('/api/settings/selector-finder'), []);
  const action = useAction();
  // Optimistic: the radio shows the choice at once, not when the server has answered.
  const [chosenTheme, setChosenTheme] = useState<Theme | undefined>();
  const [chosenFinder, setChosenFinder] = useState<'highlight' | 'ai' | undefined>();
  const currentTheme = chosenTheme ?? theme.data?.theme;
  const currentFinder = chosenFinder ?? finder.data?.selectorFinder;

  const chooseTheme = async (value: Theme) => {
    setChosenTheme(value);
    applyTheme(value);
    const answer = await action.run(() => post<{ theme: Theme }>('/api/settings/theme', { theme: value }));
    if (answer) {
      theme.set(answer);
      applyTheme(answer.theme);
      announce(`Theme: ${THEME_LABELS[answer.theme]}`);
    }
  };
  const chooseFinder = async (value: 'highlight' | 'ai') => {
    setChosenFinder(value);
    const answer = await action.run(() => post<{ selectorFinder: 'highlight' | 'ai' }>('/api/settings/selector-finder', { selectorFinder: value }));
    if (answer) {
      finder.set(answer);
      announce('Selector finder saved');
    }
  };

  return (
    <section id="appearance" class="card" aria-labelledby="appearance-title">
      <h2 id="appearance-title">Appearance</h2>
      <ErrorBox error={theme.error ?? finder.error} />
      <ErrorBox error={action.error} />
      <fieldset class="choices">
        <legend>Theme</legend>
        {THEMES.map((value) => (
          <label key={value} class={`theme-choice theme-swatch-${value}`}>
            <input type="radio" name="theme" value={value} checked={currentTheme === value} onChange={() => void chooseTheme(value)} />
            <span>{THEME_LABELS[value]}</span>
          </label>
        ))}
      </fieldset>
      <fieldset class="choices">
        <legend>Selector finder</legend>
        <label>
          <input type="radio" name="selector-finder" value="highlight" checked={currentFinder === 'highlight'} onChange={() => void chooseFinder('highlight')} />
          <span>Inspector: match the hint on the live page and outline the best element</span>
        </label>
        <label>
          <input type="radio" name="selector-finder" value="ai" checked={currentFinder === 'ai'} onChange={() => void chooseFinder('ai')} />
          <span>AI generator: ask the configured AI providers</span>
        </label>
      </fieldset>
    </section>
  );
}
