// The site header (title, language switch) and footer (timer resolution) shared by both pages.
import { el } from './dom.js';
import { t, LANGS, current_lang } from './i18n.js';
import { update_url, set_or_delete } from './url_state.js';
import { format_number } from './format.js';
import { timer_resolution_ms } from './timer_resolution.js';

/**
 * A keyboard-usable language switch (a group of toggle buttons). on_change(lang) loads what the page needs
 * in that language, switches to it (set_lang) and re-renders; the choice is kept in the URL (lang=vi).
 */
export function language_switch(on_change) {
  const buttons = LANGS.map((lang) => el('button', {
    type: 'button', class: 'sl-lang-button', lang, 'aria-pressed': String(lang === current_lang()),
    'data-lang': lang, on: { click: () => switch_to(lang) },
  }, t(`lang.${lang}`)));
  const switch_to = async (lang) => {
    if (lang === current_lang()) return;
    await on_change(lang);
    update_url((query) => set_or_delete(query, 'lang', lang === 'en' ? null : lang));
    document.querySelector(`.sl-lang-button[data-lang="${lang}"]`)?.focus();
  };
  return el('div', { class: 'sl-lang', role: 'group', 'aria-label': t('lang.label') }, buttons);
}

/** The header: site name (a link home on lab pages), an optional subtitle, and the language switch. */
export function site_header({ home_link, on_lang_change }) {
  const home = new URL('index.html', window.location.href);
  if (current_lang() !== 'en') home.searchParams.set('lang', current_lang());
  const name = home_link
    ? el('a', { class: 'sl-site-name', href: home.href }, t('site.title'))
    : el('span', { class: 'sl-site-name' }, t('site.title'));
  return el('header', { class: 'sl-site-header' },
    el('a', { class: 'sl-skip', href: '#sl-main' }, t('site.skip')),
    name, language_switch(on_lang_change));
}

/** The footer: "timer resolution 5 µs, cross-origin isolated" (only isolation until a worker measured it). */
export function site_footer() {
  return el('footer', { class: 'sl-site-footer' },
    el('p', { class: 'sl-timer', 'data-isolated': String(Boolean(self.crossOriginIsolated)) }, timer_text()),
    el('p', {}, t('footer.about')));
}

/** Rewrites the footer's timer line after set_timer_resolution_ms(). */
export function refresh_footer_timer() {
  const line = document.querySelector('.sl-timer');
  if (line) line.textContent = timer_text();
}

function timer_text() {
  const resolution_ms = timer_resolution_ms();
  const isolation = t(self.crossOriginIsolated ? 'footer.isolated' : 'footer.not_isolated');
  if (resolution_ms === null || !Number.isFinite(resolution_ms)) return t('footer.isolation_only', { isolation });
  return t('footer.timer', { resolution: `${format_number(resolution_ms * 1000, 3)} µs`, isolation });
}
