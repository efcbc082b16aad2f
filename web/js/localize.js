// A lab file holds both languages: every translated value is an object whose keys are exactly the languages
// ({"en": …, "vi": …}). localize() picks one language throughout; a chart's Vega-Lite `spec` is kept as is.
// The build (scripts/labs/load.mjs) and the page (labs.js) share this one definition.

export const LANGS = ['en', 'vi'];

export function localize(value, lang) {
  if (Array.isArray(value)) return value.map((item) => localize(item, lang));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === LANGS.length && LANGS.every((l) => keys.includes(l))) return value[lang];
  return Object.fromEntries(keys.map((key) => [key, key === 'spec' ? value[key] : localize(value[key], lang)]));
}
