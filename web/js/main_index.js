// index.html: the site title, one line about it, and the labs in order ("coming" ones are not links).
import { el, replace_children } from './dom.js';
import { t, pick, set_lang, current_lang } from './i18n.js';
import { read_page_state } from './url_state.js';
import { fetch_lab_index } from './labs.js';
import { site_header, site_footer } from './site_chrome.js';
import { take_waiting_version, enable_offline } from './offline.js';

let labs = null;
let load_error = null;

async function main() {
  if (!(await take_waiting_version())) return;   // a newer deployment: the page reloads on it
  await set_lang(read_page_state().lang);
  try {
    labs = await fetch_lab_index();
  } catch (error) {
    load_error = error;
  }
  render();
  document.body.dataset.ready = 'true';
  enable_offline();
}

function render() {
  document.title = `${t('site.title')} · ${t('site.tagline')}`;
  const main_element = el('main', { id: 'sl-main', class: 'sl-main' },
    el('h1', { class: 'sl-page-title' }, t('site.title')),
    el('p', { class: 'sl-tagline' }, t('site.tagline')),
    el('h2', { class: 'sl-section-title' }, t('index.labs')),
    load_error
      ? el('p', { class: 'sl-error', role: 'alert' }, t('index.load_failed', { message: load_error.message }))
      : el('ol', { class: 'sl-lab-list' }, (labs || []).map(lab_item)));
  replace_children(document.body,
    site_header({ home_link: false, on_lang_change: async (lang) => { await set_lang(lang); render(); } }), main_element, site_footer());
}

function lab_item(lab) {
  const title = pick(lab.title, lab.id);
  const is_ready = lab.status === 'ready';
  const href = `lab.html?lab=${encodeURIComponent(lab.id)}${current_lang() === 'en' ? '' : `&lang=${current_lang()}`}`;
  return el('li', { class: `sl-lab-card ${is_ready ? 'sl-lab-ready' : 'sl-lab-coming'}`, 'data-lab': lab.id, 'data-status': lab.status },
    el('h3', { class: 'sl-lab-card-title' },
      is_ready ? el('a', { href }, title) : el('span', {}, title),
      is_ready ? null : el('span', { class: 'sl-badge' }, t('index.coming'))),
    el('p', { class: 'sl-lab-card-summary' }, pick(lab.summary)));
}

main();
