// All page state lives in the query string, written with history.replaceState.
// Keys: lab, cell, embed, lang; parameters are the CLI names. On the full lab page a parameter key is
// prefixed with the cell's short id ("littles-law.lambda=200"); in embed mode it is plain ("lambda=200").
// A parameter's earlier names (spec.params[i].aliases, the CLI's old flags) are read as its key too, so old
// links keep working; the page then writes the URL back with the current name. A pinned design A (compare.js)
// is "<cell>.A=1" with its parameters and seed under "<cell>.A.<name>" ("A=1", "A.<name>" in embed mode).
// A cell's preset (C++ CellSpec::presets) is "<cell>.preset=<id>" ("preset=<id>" in embed mode): its values
// are then not written, only the values that differ from it (cell_view.js), as `--preset <id> --<name> <v>`.

export const SEED_KEY = 'seed';
/** A cell's named preset ("<cell>.preset=<id>"; cell_view.js). */
export const PRESET_KEY = 'preset';
/** A pinned design A ("<cell>.A=1", its inputs under "<cell>.A.<name>"; compare.js). */
export const A_KEY = 'A';
/** The page's own keys: read_page_state's, ?predict=0 (main_lab.js), ?assign= (challenges.js), ?workers= (spread_run.js). */
export const PAGE_KEYS = ['lab', 'cell', 'embed', 'lang', 'predict', 'assign', 'workers'];

/** Reads ?lab=queues&cell=littles-law&embed=1&lang=vi into an object. */
export function read_page_state(search = window.location.search) {
  const query = new URLSearchParams(search);
  return {
    lab: query.get('lab') || '',
    cell: query.get('cell') || '',
    embed: query.get('embed') === '1',
    lang: query.get('lang') || '',
    query,
  };
}

/** "queues/littles-law" → "littles-law". */
export function short_id(cell_id) { return cell_id.slice(cell_id.indexOf('/') + 1); }

/** The query key of one parameter (or the seed) of one cell. */
export function param_key(cell_id, name, embed) { return embed ? name : `${short_id(cell_id)}.${name}`; }

/** The URL keys of a parameter's earlier names, in the same form as param_key. */
export function alias_keys(cell_id, param, embed) { return (param.aliases || []).map((old) => param_key(cell_id, old, embed)); }

/** A parameter's text from the query: under its name, else under its first earlier name present; or null. */
export function read_param(query, cell_id, param, embed) {
  for (const key of [param_key(cell_id, param.name, embed), ...alias_keys(cell_id, param, embed)]) {
    if (query.has(key)) return query.get(key);
  }
  return null;
}

/** Every key a cell reads from the URL: its parameters under their names and earlier names, its seed and preset, and design A's. */
export function cell_url_keys(spec, embed) {
  const names = spec.params.flatMap((param) => [param.name, ...(param.aliases || [])]);
  return [...names, SEED_KEY, PRESET_KEY, A_KEY, ...[SEED_KEY, ...names].map((name) => `${A_KEY}.${name}`)]
    .map((name) => param_key(spec.id, name, embed));
}

/**
 * What a link says that the page does not read, as "key=value" texts: keys that neither the page nor any of `specs`
 * (the cells the URL can address) reads, then presets their cell does not have. The CLI refuses both; the page runs
 * without them and says so (main_lab.js), rather than dropping a teacher's mistyped parameter in silence.
 */
export function unread_url_entries(query, specs, embed) {
  const known = new Set(PAGE_KEYS);
  for (const spec of specs) for (const key of cell_url_keys(spec, embed)) known.add(key);
  const unread = [...query].filter(([key]) => !known.has(key));
  for (const spec of specs) {
    const key = param_key(spec.id, PRESET_KEY, embed);
    if (query.has(key) && !(spec.presets || []).some((preset) => preset.id === query.get(key))) unread.push([key, query.get(key)]);
  }
  // A hand-edited link may carry anything: each entry is cut to 60 characters, and at most 8 are named.
  const entries = unread.map(([key, value]) => { const text = `${key}=${value}`; return text.length > 60 ? `${text.slice(0, 59)}…` : text; });
  return entries.length > 8 ? [...entries.slice(0, 8), '…'] : entries;
}

/**
 * Applies a change to the current URL's query without adding a history entry. An unchanged URL is not
 * written: each cell writes its parameters when built, and those replaceState calls took 75-100 ms of the
 * queues page's main thread in a profile (16 ms without them).
 */
export function update_url(change) {
  const url = new URL(window.location.href);
  change(url.searchParams);
  if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url);
}

/** Sets a key, or deletes it when value is null (a parameter back at its default). */
export function set_or_delete(query, key, value) {
  if (value === null || value === undefined) query.delete(key);
  else query.set(key, value);
}

/**
 * The URL that shows only this cell in embed mode, with plain parameter keys.
 * values: {name: text} of changed parameters; seed: text or null.
 */
export function embed_url({ lab, cell_id, values, seed, lang }) {
  const url = new URL('lab.html', window.location.href);
  const query = url.searchParams;
  query.set('lab', lab);
  query.set('cell', short_id(cell_id));
  query.set('embed', '1');
  for (const [name, text] of Object.entries(values)) query.set(name, text);
  if (seed !== null && seed !== undefined) query.set(SEED_KEY, seed);
  if (lang && lang !== 'en') query.set('lang', lang);
  return url.href;
}

/**
 * The full lab page, optionally at one cell with its changed parameters (keys prefixed with the cell's id)
 * and seed. values: {name: text}; seed: text or null.
 */
export function lab_url({ lab, cell_id = null, values = {}, seed = null, lang }) {
  const url = new URL('lab.html', window.location.href);
  url.searchParams.set('lab', lab);
  if (lang && lang !== 'en') url.searchParams.set('lang', lang);
  if (cell_id) {
    for (const [name, text] of Object.entries(values)) url.searchParams.set(param_key(cell_id, name, false), text);
    if (seed !== null && seed !== undefined) url.searchParams.set(param_key(cell_id, SEED_KEY, false), seed);
    url.hash = short_id(cell_id);
  }
  return url.href;
}

/** The full lab page URL pointing at one cell (the current URL plus #littles-law). */
export function cell_link(cell_id) {
  const url = new URL(window.location.href);
  url.hash = short_id(cell_id);
  return url.href;
}
