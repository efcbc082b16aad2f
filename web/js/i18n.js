// UI strings from i18n/<lang>.json, and picking the current language out of lab-file {en, vi} objects.

export const LANGS = ['en', 'vi'];
const DEFAULT_LANG = 'en';
const loaded = new Map();   // lang → strings
let lang = DEFAULT_LANG;
let strings = {};

export function current_lang() { return lang; }

export function normalize_lang(value) { return LANGS.includes(value) ? value : DEFAULT_LANG; }

/** Loads (once) and switches to a language; updates <html lang>. */
export async function set_lang(value) {
  const next = normalize_lang(value);
  if (!loaded.has(next)) {
    const response = await fetch(`i18n/${next}.json`);
    if (!response.ok) throw new Error(`i18n/${next}.json: HTTP ${response.status}`);
    loaded.set(next, await response.json());
  }
  if (errors_wanted) await errors_of(next);
  lang = next;
  strings = loaded.get(next);
  document.documentElement.lang = next;
}

// The error templates are a file of their own (scripts/build.mjs: i18n/<lang>.errors.json), fetched before the
// first error is shown, and for every language switched to after that. Unbuilt, they are in <lang>.json already.
const errors_loading = new Map();   // lang → Promise
let errors_wanted = false;

function errors_of(value) {
  if (!errors_loading.has(value)) {
    errors_loading.set(value, fetch(`i18n/${value}.errors.json`)
      .then((response) => (response.ok ? response.json() : {}))
      .then(({ errors }) => { if (errors) loaded.get(value).errors = errors; }, () => {}));
  }
  return errors_loading.get(value);
}

/** Resolves once the current language's error templates are in (at once after the first time); never rejects. */
export function load_errors() {
  errors_wanted = true;
  return errors_of(lang);
}

/** t('cell.run') → "Run"; t('cell.done', {ms: 12}) fills {ms}. Unknown keys return the key. */
export function t(key, args) {
  const template = lookup(key);
  return typeof template === 'string' ? fill(template, args) : key;
}

/** True when a UI string exists for key (used to decide whether to fall back to C++'s message). */
export function has(key) { return typeof lookup(key) === 'string'; }

function lookup(key) { return key.split('.').reduce((node, part) => (node ? node[part] : undefined), strings); }

/** Replaces {name} placeholders; leaves unknown ones in place. */
export function fill(template, args = {}) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (args[name] !== undefined ? String(args[name]) : whole));
}

/** pick({en: 'Queues', vi: 'Hàng đợi'}) → the current language, falling back to English. */
export function pick(localized, fallback = '') {
  if (localized === null || localized === undefined) return fallback;
  if (typeof localized === 'string' || Array.isArray(localized)) return localized;   // already one language's (labs/<lab>.<lang>.json)
  return localized[lang] ?? localized[DEFAULT_LANG] ?? fallback;
}

/**
 * A unit from C++ ("requests", "ms", "1/s") in the current language: the UI's units.<unit> string when
 * there is one, else the unit as C++ wrote it (symbols such as ms and GiB read the same in both languages).
 */
export function unit_text(unit) {
  if (!unit) return '';
  const translated = lookup('units')?.[unit];
  return typeof translated === 'string' ? translated : unit;
}
