import { render } from 'preact';
import { App } from './app';
import { applyTheme, themeFromCookie } from './lib/theme';
import './styles.css';

// Before the first paint: the theme the server last set in its cookie (the stored one is read after login).
applyTheme(themeFromCookie() ?? 'dark');
render(<App />, document.getElementById('app')!);
