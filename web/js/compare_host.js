// What compare.js uses of the page's modules. cell_view.js hands these to compare.js when it loads it, rather than
// compare.js importing them: a module the lazily loaded file shared with the lab page would be split by the bundler
// into chunks of their own (three more requests before a lab page's first result, ~3 kB of its 500 kB budget).
export { el } from './dom.js';
export { t, pick, load_errors } from './i18n.js';
export { format_number, format_signed } from './format.js';
export { output_unit, error_text } from './result_view.js';
export { columns_to_rows } from './charts.js';
export { CellWorker } from './worker_pool.js';
export { may_fetch, asset_inputs, needed_assets } from './data_assets.js';
export { param_key, read_param, update_url, set_or_delete } from './url_state.js';
