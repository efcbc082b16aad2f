// What compare.js and challenges.js use of the page's modules. cell_view.js hands these to compare.js, main_lab.js
// to challenges.js, when it loads it, rather than the lazily loaded file importing them: a module it shared with the
// lab page would be split by the bundler into chunks of their own (three more requests before a lab page's first
// result, ~3 kB of its 500 kB budget). One namespace for both: a second one cost 0.1 kB of that budget.
export { el, replace_children } from './dom.js';
export { t, pick, load_errors, current_lang, fill } from './i18n.js';
export { format_number, format_signed } from './format.js';
export { to_c_number } from './number_text.js';
export { save, to_csv } from './download.js';
export { output_unit, error_text } from './result_view.js';
export { columns_to_rows } from './charts.js';
export { CellWorker } from './worker_pool.js';
export { may_fetch, asset_inputs, needed_assets } from './data_assets.js';
export { param_key, read_param, update_url, set_or_delete, embed_url, lab_url, short_id, A_KEY } from './url_state.js';
