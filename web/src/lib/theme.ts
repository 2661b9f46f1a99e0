import { THEMES, type Theme } from '../api/types';

const isTheme = (value: unknown): value is Theme => THEMES.includes(value as Theme);

/** The theme the server last set in its `service_theme` cookie (readable before login). */
export function themeFromCookie(): Theme | undefined {
  for (const part of document.cookie.split(';')) {
    const [name, value] = part.trim().split('=');
    if ((name === 'service_theme' || name === 'theme') && isTheme(decodeURIComponent(value ?? ''))) return decodeURIComponent(value!) as Theme;
  }
  return undefined;
}

export function applyTheme(theme: unknown): Theme {
  const chosen = isTheme(theme) ? theme : 'dark';
  document.documentElement.dataset.theme = chosen;
  document.documentElement.style.colorScheme = chosen.endsWith('light') ? 'light' : 'dark';
  return chosen;
}

export const THEME_LABELS: Record<Theme, string> = {
  dark: 'Dark',
  light: 'Light',
  'solarized-light': 'Solarized light',
  'solarized-dark': 'Solarized dark',
};
