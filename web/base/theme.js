// The page's theme: auto (the system's), light or dark, cycled by its button.
import { $ } from './page-state.js';

const THEMES = ['auto', 'light', 'dark'];

export function setTheme(theme) {
  document.documentElement.dataset.theme = theme;
  $('theme').textContent = { auto: '◐', light: '☀', dark: '☾' }[theme];
  $('theme').setAttribute('aria-label', `Theme: ${theme}`);
  $('theme').title = `Theme: ${theme}${theme === 'auto' ? ' (follows the system)' : ''}; click for ${THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length]}`;
}

/** Whether the page shows its dark theme (chosen, or the system's). */
export function isDark() {
  const theme = document.documentElement.dataset.theme;
  return theme === 'dark' || (theme !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
}

/** The theme button: auto → light → dark → auto. */
export function listenToTheme() {
  $('theme').addEventListener('click', () => {
    const current = document.documentElement.dataset.theme || 'auto';
    setTheme(THEMES[(THEMES.indexOf(current) + 1) % THEMES.length]);
  });
}
