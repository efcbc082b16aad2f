// Checked challenges, the reader's progress and teachers' assignment links (issue 34). Loaded after a page's first
// result (main_lab.js), or before its cells when the URL carries ?assign=.
//
// A challenge (labs/<lab>/<cell>.json "challenges", cell.schema.json) is a condition on C++ outputs at the reader's
// inputs: an output compared with a constant the question states, another output or a parameter times a factor.
// A search challenge ("the smallest λ such that…") also needs the condition to fail one step away (step_frac of
// the reader's value, at least 1 for a count): the page asks the cell's own worker for that run (CellView.probe),
// never recomputing anything here. Checked after each run of the cell, or with the Check button.
//
// Progress lives in this browser only (localStorage STORE_KEY, versioned), can be downloaded as JSON or CSV and
// cleared. An embedded cell posts {type: "serving-lab:challenge", cell, challenge, state, values} to its host page.
//
// An assignment is the link itself: ?assign=<base64url of {"v":1,"c":{<short cell id>:{s,l,h,k,x}}}>, where s sets
// parameters (C text), l locks and h hides parameters, k picks the challenges shown and x hides the cell. It is
// hostile until parsed: bounded in size, every name checked against the lab, refused whole with one message.
let el, replace_children, current_lang, fill, pick, format_number, to_c_number, save, to_csv, output_unit;
let embed_url, lab_url, param_key, short_id;

/** Takes the page's modules (compare_host.js); called once, before the Challenges are made. */
export function connect(host) {
  ({ el, replace_children, current_lang, fill, pick, format_number, to_c_number, save, to_csv, output_unit } = host);
  ({ embed_url, lab_url, param_key, short_id } = host);
}

export const STORE_KEY = 'serving-lab:challenges:v1';
export const ASSIGN_VERSION = 1;
export const MAX_ASSIGN_CHARS = 4096;
const MAX_TEXT = 64;
const EMBED_HEIGHT_PX = 900;
const STYLESHEET = 'css/challenges.css';

// This module's strings (not in i18n/<lang>.json: a page's first result does not wait for them).
const TEXT = {
  en: {
    heading_count: 'Challenges ({count}, {solved} solved)',
    intro: 'Move the controls until the condition holds; the page checks C++\'s results after each run.',
    check: 'Check',
    hint: 'Hint',
    solved_badge: 'Solved',
    explanation: 'Why',
    status_wait: 'Not checked yet: run the cell.',
    status_checking: 'Checking one step away…',
    status_interrupted: 'The check was interrupted by another run; press Check.',
    status_given: 'Set {label} to {value} first (it is {now}).',
    status_off: 'Not yet: {label} is {value}, the target is {op} {target} ({distance} away).',
    status_not_extreme_min: 'The condition holds ({label} {value}, target {op} {target}), but it also holds at {param} = {neighbour}: go lower.',
    status_not_extreme_max: 'The condition holds ({label} {value}, target {op} {target}), but it also holds at {param} = {neighbour}: go higher.',
    status_solved: 'Solved: {label} is {value} (target {op} {target}) and one step away, at {param} = {neighbour}, it no longer holds.',
    status_solved_edge: 'Solved: {label} is {value} (target {op} {target}), at the end of {param}\'s range.',
    status_solved_plain: 'Solved: {label} is {value} (target {op} {target}).',
    answer_needed: 'The condition holds. Now type your answer.',
    answer_off: 'The condition holds, but your answer {answer} is {distance} from the result.',
    answer_solved: 'Your answer {answer} is within {within} of the result, {value}.',
    not_a_number: 'Type a number.',
    progress_heading: 'Your progress',
    progress_summary: '{solved} of {total} challenges on this lab solved, {attempted} attempted. Kept in this browser only.',
    download_json: 'Download progress (JSON)',
    download_csv: 'Download progress (CSV)',
    clear: 'Clear my progress',
    cleared: 'Progress cleared.',
    assign: 'Assign (for teachers)…',
    assigned: 'This page is an assignment: some parameters are set by your teacher.',
    locked_note: 'Set by your teacher.',
    refused: 'This assignment link is damaged or not for this lab, so it was ignored: the lab opens as usual.',
    dialog_title: 'Make an assignment link',
    dialog_intro: 'The link takes each cell\'s current inputs. Tick what the student may not change or see, and the challenges to show. Nothing is stored on a server.',
    hide_cell: 'Hide this cell',
    params_heading: 'Parameters ({count})',
    lock: 'lock',
    hide: 'hide',
    pick: 'Include: {question}',
    make: 'Make the link',
    close: 'Close',
    link_label: 'Assignment link',
    embed_label: 'Embed snippet (one iframe per cell with challenges)',
    too_long: 'The assignment is too long for a link ({chars} characters, at most {max}): lock or hide fewer parameters.',
  },
  vi: {
    heading_count: 'Thử thách ({count}, đã giải {solved})',
    intro: 'Hãy chỉnh các tham số cho tới khi điều kiện thỏa mãn; trang kiểm tra kết quả của C++ sau mỗi lần chạy.',
    check: 'Kiểm tra',
    hint: 'Gợi ý',
    solved_badge: 'Đã giải',
    explanation: 'Vì sao',
    status_wait: 'Chưa kiểm tra: hãy chạy ô này.',
    status_checking: 'Đang kiểm tra ở một bước bên cạnh…',
    status_interrupted: 'Việc kiểm tra bị một lần chạy khác cắt ngang; hãy bấm Kiểm tra.',
    status_given: 'Trước hết hãy đặt {label} bằng {value} (hiện là {now}).',
    status_off: 'Chưa đạt: {label} là {value}, mục tiêu là {op} {target} (còn cách {distance}).',
    status_not_extreme_min: 'Điều kiện thỏa mãn ({label} {value}, mục tiêu {op} {target}), nhưng nó vẫn thỏa mãn ở {param} = {neighbour}: hãy giảm thêm.',
    status_not_extreme_max: 'Điều kiện thỏa mãn ({label} {value}, mục tiêu {op} {target}), nhưng nó vẫn thỏa mãn ở {param} = {neighbour}: hãy tăng thêm.',
    status_solved: 'Đã giải: {label} là {value} (mục tiêu {op} {target}) và ở một bước bên cạnh, {param} = {neighbour}, điều kiện không còn thỏa mãn.',
    status_solved_edge: 'Đã giải: {label} là {value} (mục tiêu {op} {target}), ở đầu mút khoảng giá trị của {param}.',
    status_solved_plain: 'Đã giải: {label} là {value} (mục tiêu {op} {target}).',
    answer_needed: 'Điều kiện đã thỏa mãn. Giờ hãy nhập câu trả lời của bạn.',
    answer_off: 'Điều kiện đã thỏa mãn, nhưng câu trả lời {answer} của bạn còn cách kết quả {distance}.',
    answer_solved: 'Câu trả lời {answer} của bạn nằm trong phạm vi {within} quanh kết quả {value}.',
    not_a_number: 'Hãy nhập một số.',
    progress_heading: 'Tiến độ của bạn',
    progress_summary: 'Đã giải {solved} trên {total} thử thách của bài thực hành này, đã thử {attempted}. Chỉ lưu trong trình duyệt này.',
    download_json: 'Tải tiến độ (JSON)',
    download_csv: 'Tải tiến độ (CSV)',
    clear: 'Xóa tiến độ của tôi',
    cleared: 'Đã xóa tiến độ.',
    assign: 'Giao bài (cho giáo viên)…',
    assigned: 'Trang này là một bài được giao: một số tham số do giáo viên của bạn đặt.',
    locked_note: 'Do giáo viên của bạn đặt.',
    refused: 'Đường liên kết giao bài này bị hỏng hoặc không dành cho bài thực hành này, nên đã bị bỏ qua: bài thực hành mở như bình thường.',
    dialog_title: 'Tạo đường liên kết giao bài',
    dialog_intro: 'Đường liên kết lấy các giá trị hiện tại của mỗi ô. Hãy đánh dấu những gì học sinh không được đổi hoặc không được thấy, và các thử thách sẽ hiện. Không có gì được lưu trên máy chủ.',
    hide_cell: 'Ẩn ô này',
    params_heading: 'Tham số ({count})',
    lock: 'khóa',
    hide: 'ẩn',
    pick: 'Đưa vào: {question}',
    make: 'Tạo đường liên kết',
    close: 'Đóng',
    link_label: 'Đường liên kết giao bài',
    embed_label: 'Đoạn mã nhúng (mỗi ô có thử thách một iframe)',
    too_long: 'Bài giao quá dài cho một đường liên kết ({chars} ký tự, tối đa {max}): hãy khóa hoặc ẩn ít tham số hơn.',
  },
};

const tx = (key, args) => fill(TEXT[current_lang()]?.[key] ?? TEXT.en[key], args);

// ---- progress ----------------------------------------------------------------------------------------------

/** The stored progress: {"<cell id>/<challenge id>": {state, values, at}}; anything unreadable counts as none. */
export function load_progress(storage = globalThis.localStorage) {
  try {
    const parsed = JSON.parse(storage?.getItem(STORE_KEY) ?? '{}');
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([, entry]) =>
      entry && typeof entry === 'object' && ['attempted', 'solved'].includes(entry.state)));
  } catch {
    return {};
  }
}

function save_progress(progress) {
  try {
    globalThis.localStorage?.setItem(STORE_KEY, JSON.stringify(progress));
  } catch { /* storage full or refused: progress lives as long as the page */ }
}

// ---- assignments -------------------------------------------------------------------------------------------

const to_base64url = (text) => btoa(String.fromCharCode(...new TextEncoder().encode(text)))
  .replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/** The ?assign= text of an assignment {cells: {<cell id>: {set, lock, hide, pick, hidden}}}. */
export function encode_assignment(assignment) {
  const c = {};
  for (const [cell_id, entry] of Object.entries(assignment.cells)) {
    const compact = {};
    if (Object.keys(entry.set || {}).length) compact.s = entry.set;
    if (entry.lock?.length) compact.l = entry.lock;
    if (entry.hide?.length) compact.h = entry.hide;
    if (entry.pick?.length) compact.k = entry.pick;
    if (entry.hidden) compact.x = 1;
    if (Object.keys(compact).length) c[short_id(cell_id)] = compact;
  }
  return to_base64url(JSON.stringify({ v: ASSIGN_VERSION, c }));
}

/**
 * Reads ?assign= against the lab (its cells with their C++ specs; challenges_of(cell id) → its challenges): {cells: {<cell id>: {set, lock, hide, pick,
 * hidden}}}, or throws on anything out of place (the caller refuses the whole link).
 */
export function decode_assignment(text, lab, challenges_of) {
  const fail = (why) => { throw new Error(`assignment: ${why}`); };
  if (typeof text !== 'string' || !text || text.length > MAX_ASSIGN_CHARS || !/^[A-Za-z0-9_-]+$/.test(text)) fail('size or alphabet');
  let json;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0))));
  } catch {
    fail('not base64url JSON');
  }
  const is_object = (value) => value !== null && typeof value === 'object' && !Array.isArray(value);
  if (!is_object(json) || Object.keys(json).sort().join() !== 'c,v' || json.v !== ASSIGN_VERSION || !is_object(json.c)) fail('shape');
  const cells = {};
  for (const [short, entry] of Object.entries(json.c)) {
    const doc = lab.cells.find((cell) => short_id(cell.id) === short);
    const spec = doc && lab.cell_specs?.[doc.id];
    if (!spec || !is_object(entry)) fail(`cell ${short}`);
    if (Object.keys(entry).some((key) => !['s', 'l', 'h', 'k', 'x'].includes(key))) fail('entry keys');
    const params = new Set(spec.params.filter((param) => param.kind !== 'bytes').map((param) => param.name));
    const names = (list, known) => {
      if (list === undefined) return [];
      if (!Array.isArray(list) || list.length > known.size || new Set(list).size !== list.length ||
        list.some((name) => typeof name !== 'string' || !known.has(name))) fail(`names in ${short}`);
      return list;
    };
    const set = entry.s ?? {};
    if (!is_object(set) || Object.entries(set).some(([name, value]) => !params.has(name) || typeof value !== 'string' ||
      !value || value.length > MAX_TEXT)) fail(`values in ${short}`);
    if (entry.x !== undefined && entry.x !== 1) fail('hidden flag');
    cells[doc.id] = {
      set: { ...set }, lock: names(entry.l, params), hide: names(entry.h, params),
      pick: names(entry.k, new Set(challenges_of(doc.id).map((challenge) => challenge.id))), hidden: entry.x === 1,
    };
  }
  return { cells };
}

// ---- checking ----------------------------------------------------------------------------------------------

/** The target of a check at these outputs and inputs (a constant, another output or a parameter times a factor). */
function target_of(check, outputs, values) {
  const value = check.value;
  if (typeof value === 'number') return value;
  if (value.output !== undefined) return Number(outputs[value.output]) * value.times;
  return Number(values[value.param]) * value.times;
}

function holds(check, outputs, values) {
  const output = Number(outputs?.[check.output]);
  const target = target_of(check, outputs || {}, values);
  if (!Number.isFinite(output) || !Number.isFinite(target)) return { known: false, output, target };
  return { known: true, output, target, ok: check.op === '<=' ? output <= target : output >= target };
}

/** The parameter one step from x: step_frac of it (at least 1 for a count), or null past the parameter's range. */
function neighbour_of(param, x, search) {
  if (!Number.isFinite(x)) return null;
  const step = param.kind === 'count' ? Math.max(1, Math.round(Math.abs(x) * search.step_frac)) : Math.abs(x) * search.step_frac;
  const next = search.goal === 'min' ? x - step : x + step;
  if (!(step > 0) || next < param.min || next > param.max) return null;
  return param.kind === 'count' ? next : Number(next.toPrecision(6));
}

const percent = (fraction) => `${format_number(Math.abs(fraction) * 100, 2)} %`;
const distance_text = (a, b) => (b === 0 ? format_number(Math.abs(a - b)) : percent((a - b) / b));

// ---- the page's challenges ---------------------------------------------------------------------------------

export class Challenges {
  #lab; #embed; #tools; #banner; #post;
  #texts;               // {cell id: [challenge]}, labs/<lab>.challenges.json
  #assignment = null; #refused = false;
  #views = new Map();   // view → {element, items: Map(challenge id → {challenge, state, text, answer})}
  #progress = load_progress();
  #dialog = null;
  #status_text = '';

  /** The page's challenges, once labs/<lab>.challenges.json has come (none if it cannot be read). */
  static async create(options) {
    let texts = {};
    try {
      const response = await fetch(`labs/${options.lab.id}.challenges.json`);
      if (response.ok) texts = await response.json();
    } catch (error) {
      console.warn(`challenges: ${error.message}`);
    }
    return new Challenges({ ...options, texts });
  }

  constructor({ lab, query, embed, tools, banner, post, texts = {} }) {
    this.#lab = lab;
    this.#texts = texts;
    this.#banner = banner;
    this.#embed = embed;
    this.#tools = tools;
    this.#post = post;
    // The sheet is a <link>: the page's CSP allows only its own style sheets.
    if (!document.querySelector(`link[href="${STYLESHEET}"]`)) document.head.append(el('link', { rel: 'stylesheet', href: STYLESHEET }));
    if (query.has('assign')) {
      try {
        this.#assignment = decode_assignment(query.get('assign'), lab, (id) => this.#of(id));
      } catch (error) {
        this.#refused = true;
        console.warn(error.message);
      }
    }
    // The assignment's values: a locked one always, another unless the reader's own edit is in the URL.
    for (const [cell_id, entry] of Object.entries(this.#assignment?.cells || {})) {
      for (const [name, text] of Object.entries(entry.set)) {
        const key = param_key(cell_id, name, embed);
        if (entry.lock.includes(name) || !query.has(key)) query.set(key, text);
      }
    }
    this.#render_tools();
  }

  #of(cell_id) { return Array.isArray(this.#texts[cell_id]) ? this.#texts[cell_id] : []; }

  /** The cells the assignment hides (full ids). */
  hidden_cells() {
    return Object.entries(this.#assignment?.cells || {}).filter(([, entry]) => entry.hidden).map(([id]) => id);
  }

  /** Takes a cell view (once): its limits, its panel, and a check after each of its runs. */
  add(view) {
    if (this.#views.has(view)) return;
    const entry = this.#assignment?.cells[view.cell_id];
    if (entry) {
      restrict(view, entry);
      view.element.addEventListener('sl-built', () => restrict(view, entry));
    }
    const all = this.#of(view.cell_id);
    const shown = this.#assignment ? all.filter((challenge) => entry?.pick.includes(challenge.id)) : all;
    // A closed disclosure on a lab page, like the cell's others (open in an embed or an assignment: the reader came for them).
    const record = { open: this.#embed || Boolean(this.#assignment), items: new Map(shown.map((challenge) => [challenge.id, { challenge, state: 'wait', text: tx('status_wait'), answer: '' }])) };
    this.#views.set(view, record);
    if (!shown.length) return;
    view.element.addEventListener('sl-run', () => this.check_all(view));
    this.#render(view);
    if (view.last_result) this.check_all(view);
  }

  /** Everything in the current language again (the page's language changed). */
  relabel() {
    for (const [view, record] of this.#views) {
      if (!record.items.size) continue;
      const entry = this.#assignment?.cells[view.cell_id];
      if (entry) restrict(view, entry);
      this.check_all(view);
    }
    this.#render_tools();
  }

  async check_all(view) {
    const record = this.#views.get(view);
    for (const id of record.items.keys()) await this.#check(view, id);
  }

  /**
   * Checks one challenge at the cell's last result. Progress is recorded (and an embedding page told) only once the
   * reader has edited the cell or pressed Check (`pressed`): a link that opens at an answer solves nothing by itself.
   */
  async #check(view, id, pressed = false) {
    const record = this.#views.get(view);
    const item = record.items.get(id);
    const { challenge } = item;
    const result = view.last_result;
    const values = view.values;
    const set = (state, text) => {
      item.state = state;
      item.text = text;
      this.#render(view);
    };
    if (!result || result.error) return set('wait', tx('status_wait'));
    const output_label = pick(view.doc.outputs?.[challenge.check.output]?.label, challenge.check.output);
    const param_label = (name) => pick(view.doc.params?.[name]?.label, name);
    // Inputs the question states come first.
    for (const [name, text] of Object.entries(challenge.given || {})) {
      if (Number(values[name]) !== Number(text)) {
        return set('given', tx('status_given', { label: param_label(name), value: format_number(Number(text)), now: format_number(Number(values[name])) }));
      }
    }
    const here = holds(challenge.check, result.outputs, values);
    const unit = output_unit(view.spec, challenge.check.output);
    const with_unit = (x) => `${format_number(x)}${unit ? ` ${unit}` : ''}`;
    const args = { label: output_label, value: with_unit(here.output), op: challenge.check.op === '<=' ? '≤' : '≥', target: with_unit(here.target) };
    // What a record keeps: the inputs the question names (stated and searched) and the output it checks.
    const named = [...Object.keys(challenge.given || {}), ...(challenge.search ? [challenge.search.param] : [])];
    const record_values = { ...Object.fromEntries(named.map((name) => [name, Number(values[name])])), [challenge.check.output]: here.output };
    const edited = view.edits > 0 || pressed;
    if (!here.known || !here.ok) {
      if (edited) this.#record(view, challenge, 'attempted', record_values);
      return set('unsolved', tx('status_off', { ...args, distance: here.known ? distance_text(here.output, here.target) : '—' }));
    }
    let solved_text = tx('status_solved_plain', args);
    if (challenge.search) {
      const param = view.spec.params.find((p) => p.name === challenge.search.param);
      const x = Number(values[param.name]);
      const neighbour = neighbour_of(param, x, challenge.search);
      if (neighbour === null) {
        solved_text = tx('status_solved_edge', { ...args, param: param_label(param.name) });
      } else {
        set('checking', tx('status_checking'));
        const probe = await view.probe({ [param.name]: String(neighbour) });
        if (view.last_result !== result) return undefined;   // a newer run: its own check follows
        if (!probe || probe.error) return set('interrupted', tx('status_interrupted'));
        const there = holds(challenge.check, probe.outputs, { ...values, [param.name]: String(neighbour) });
        const near = { ...args, param: param_label(param.name), neighbour: format_number(neighbour) };
        if (!there.known || there.ok) {
          if (edited) this.#record(view, challenge, 'attempted', record_values);
          return set('not-extreme', tx(`status_not_extreme_${challenge.search.goal}`, near));
        }
        solved_text = tx('status_solved', near);
      }
    }
    if (challenge.answer) {
      const answer = Number(result.outputs?.[challenge.answer.output]);
      const typed = Number(to_c_number(item.answer, current_lang()).text);
      if (item.answer.trim() === '' || !Number.isFinite(typed)) {
        if (edited) this.#record(view, challenge, 'attempted', record_values);
        return set('answer-needed', tx('answer_needed'));
      }
      record_values.answer = typed;
      const off = answer === 0 ? Math.abs(typed) : Math.abs(typed - answer) / Math.abs(answer);
      if (!(off <= challenge.answer.within_frac)) {
        if (edited) this.#record(view, challenge, 'attempted', record_values);
        return set('answer-off', tx('answer_off', { answer: format_number(typed), distance: distance_text(typed, answer) }));
      }
      solved_text = `${solved_text} ${tx('answer_solved', { answer: format_number(typed), within: percent(challenge.answer.within_frac), value: format_number(answer) })}`;
    }
    if (edited) this.#record(view, challenge, 'solved', record_values);
    return set('solved', solved_text);
  }

  /** Keeps a challenge's state (a solved one stays solved) and tells an embedding page. */
  #record(view, challenge, state, values) {
    const key = `${view.cell_id}/${challenge.id}`;
    this.#progress = load_progress();   // another tab may have written since
    const before = this.#progress[key];
    if (!(before?.state === 'solved' && state === 'attempted')) {
      this.#progress[key] = { state, values, at: new Date().toISOString() };
      save_progress(this.#progress);
    }
    if (this.#embed) this.#post({ type: 'serving-lab:challenge', cell: view.cell_id, challenge: challenge.id, state, values });
    this.#render_tools();
  }

  /** One cell's panel. */
  #render(view) {
    const record = this.#views.get(view);
    if (!record?.items.size) return;
    const prefix = `sl-${short_id(view.cell_id)}-challenges`;
    const items = [...record.items.values()].map(({ challenge, state, text, answer }) => {
      const key = `${view.cell_id}/${challenge.id}`;
      const progress = this.#progress[key]?.state ?? '';
      const id = `${prefix}-${challenge.id}`;
      const answer_box = challenge.answer ? (() => {
        const input = el('input', { id: `${id}-answer`, type: 'text', inputmode: 'decimal', class: 'sl-input sl-challenge-answer',
          autocomplete: 'off', value: answer, on: { input: (event) => { record.items.get(challenge.id).answer = event.target.value; } } });
        return el('div', { class: 'sl-challenge-answer-row' },
          el('label', { for: input.id, class: 'sl-label' }, pick(challenge.answer.label)), input);
      })() : null;
      return el('li', { class: 'sl-challenge', 'data-challenge': challenge.id, 'data-check': state, 'data-progress': progress },
        el('p', { class: 'sl-challenge-question', id: `${id}-q` },
          progress === 'solved' ? el('span', { class: 'sl-challenge-badge' }, `${tx('solved_badge')} · `) : null, pick(challenge.question)),
        answer_box,
        el('div', { class: 'sl-challenge-row' },
          el('button', { type: 'button', class: 'sl-button sl-button-small sl-challenge-check', 'aria-describedby': `${id}-q`,
            on: { click: () => this.#check(view, challenge.id, true) } }, tx('check')),
          el('p', { class: 'sl-challenge-status', role: 'status' }, text)),
        challenge.hint ? el('details', { class: 'sl-challenge-hint', open: record.items.get(challenge.id).hint_open,
          on: { toggle: (event) => { record.items.get(challenge.id).hint_open = event.target.open; } } },
        el('summary', {}, tx('hint')), el('p', {}, pick(challenge.hint))) : null,
        progress === 'solved' ? el('p', { class: 'sl-challenge-explanation' }, el('strong', {}, `${tx('explanation')}: `), pick(challenge.explanation)) : null);
    });
    const heading_id = `${prefix}-title`;
    // The panel keeps its focus across re-renders: a button that had it gets it back.
    const focused = view.challenge_slot.contains(document.activeElement) ? document.activeElement.closest('[data-challenge]')?.dataset.challenge : null;
    const focused_class = focused ? document.activeElement.className.split(' ').find((name) => name.startsWith('sl-challenge-')) : null;
    const solved = [...record.items.keys()].filter((id) => this.#progress[`${view.cell_id}/${id}`]?.state === 'solved').length;
    replace_children(view.challenge_slot, el('details', { class: 'sl-challenges', open: record.open,
      on: { toggle: (event) => { record.open = event.target.open; } } },
      el('summary', { class: 'sl-challenges-title', id: heading_id }, tx('heading_count', { count: record.items.size, solved })),
      el('p', { class: 'sl-challenges-intro' }, tx('intro')),
      el('ol', { class: 'sl-challenge-list' }, items)));
    if (focused && focused_class) view.challenge_slot.querySelector(`[data-challenge="${focused}"] .${focused_class}`)?.focus();
  }

  // ---- the lab page's progress and assignment tools ----

  #render_tools() {
    if (!this.#tools) return;
    this.#tools.className = 'sl-lab-tools';
    if (this.#banner) {
      this.#banner.className = 'sl-assign-banner';
      replace_children(this.#banner, this.#refused ? el('p', { class: 'sl-error sl-assign-refused', role: 'alert' }, tx('refused'))
        : this.#assignment ? el('p', { class: 'sl-notice sl-assign-note' }, tx('assigned')) : null);
    }
    if (this.#embed) return undefined;
    const keys = this.#lab.cells.flatMap((cell) => this.#of(cell.id).map((challenge) => `${cell.id}/${challenge.id}`));
    const count = (state) => keys.filter((key) => this.#progress[key]?.state === state).length;
    const status = el('p', { class: 'sl-tools-status', role: 'status' }, this.#status_text);
    replace_children(this.#tools, el('section', { class: 'sl-mine', 'aria-labelledby': 'sl-mine-title' },
      el('h2', { id: 'sl-mine-title' }, tx('progress_heading')),
      el('p', { class: 'sl-mine-summary' }, tx('progress_summary', { solved: count('solved'), attempted: count('attempted'), total: keys.length })),
      el('div', { class: 'sl-mine-actions' },
        el('button', { type: 'button', class: 'sl-button sl-button-small sl-mine-json', on: { click: () => this.#download('json') } }, tx('download_json')),
        el('button', { type: 'button', class: 'sl-button sl-button-small sl-mine-csv', on: { click: () => this.#download('csv') } }, tx('download_csv')),
        el('button', { type: 'button', class: 'sl-button sl-button-small sl-mine-clear', on: { click: () => this.#clear() } }, tx('clear')),
        el('button', { type: 'button', class: 'sl-button sl-button-small sl-assign-open', on: { click: () => this.#open_dialog() } }, tx('assign'))),
      status));
    this.#status_text = '';
  }

  /** This lab's rows of the progress (every lab's is in the store; a download is one lab's). */
  #rows() {
    return Object.entries(this.#progress).filter(([key]) => key.startsWith(`${this.#lab.id}/`))
      .map(([key, entry]) => {
        const [lab, cell, challenge] = key.split('/');
        return { lab, cell: `${lab}/${cell}`, challenge, state: entry.state, at: entry.at, values: entry.values || {} };
      });
  }

  #download(format) {
    const rows = this.#rows();
    const name = `serving-lab-progress-${this.#lab.id}`;
    if (format === 'json') {
      return save(`${name}.json`, `${JSON.stringify({ version: 1, lab: this.#lab.id, progress: rows }, null, 2)}\n`, 'application/json');
    }
    return save(`${name}.csv`, to_csv(['lab', 'cell', 'challenge', 'state', 'at', 'values'],
      rows.map((row) => [row.lab, row.cell, row.challenge, row.state, row.at, JSON.stringify(row.values)])), 'text/csv');
  }

  #clear() {
    try { globalThis.localStorage?.removeItem(STORE_KEY); } catch { /* nothing stored */ }
    this.#progress = {};
    for (const view of this.#views.keys()) this.#render(view);
    this.#status_text = tx('cleared');
    this.#render_tools();
    this.#tools.querySelector('.sl-mine-clear')?.focus();
  }

  /** The teacher's dialog: each cell's current inputs, with what to lock, hide and pick. */
  #open_dialog() {
    this.#dialog?.remove();
    const views = [...this.#views.keys()];
    const output = el('div', { class: 'sl-assign-output' });
    const cells = views.map((view) => {
      const sid = short_id(view.cell_id);
      const params = view.spec.params.filter((param) => param.kind !== 'bytes');
      const box = (what, name, label) => {
        const id = `sl-assign-${sid}-${what}-${name}`;
        return el('span', { class: 'sl-assign-check' },
          el('input', { type: 'checkbox', id, 'data-what': what, 'data-name': name }), el('label', { for: id }, label));
      };
      const values = view.values;
      return el('fieldset', { class: 'sl-assign-cell', 'data-cell': view.cell_id },
        el('legend', {}, view.plain_title),
        el('div', { class: 'sl-assign-choice' }, box('cell', 'hidden', tx('hide_cell'))),
        this.#of(view.cell_id).map((challenge) => el('div', { class: 'sl-assign-choice' }, box('pick', challenge.id, tx('pick', { question: pick(challenge.question) })))),
        el('details', { class: 'sl-assign-params' }, el('summary', {}, tx('params_heading', { count: params.length })),
          el('ul', {}, params.map((param) => el('li', { 'data-param': param.name },
            el('span', { class: 'sl-assign-param' }, `${pick(view.doc.params?.[param.name]?.label, param.name)} = ${values[param.name]}`),
            ' ', box('lock', param.name, tx('lock')), ' ', box('hide', param.name, tx('hide')))))));
    });
    const make = () => {
      const assignment = { cells: {} };
      for (const view of views) {
        const fieldset = this.#dialog.querySelector(`fieldset[data-cell="${CSS.escape(view.cell_id)}"]`);
        const ticked = (what) => [...fieldset.querySelectorAll(`input[data-what="${what}"]:checked`)].map((box) => box.dataset.name);
        const lock = ticked('lock');
        const values = view.values;
        const set = Object.fromEntries(view.spec.params.filter((param) => param.kind !== 'bytes' &&
          (lock.includes(param.name) || values[param.name] !== String(param.default))).map((param) => [param.name, values[param.name]]));
        assignment.cells[view.cell_id] = { set, lock, hide: ticked('hide'), pick: ticked('pick'), hidden: ticked('cell').length > 0 };
      }
      const code = encode_assignment(assignment);
      if (code.length > MAX_ASSIGN_CHARS) {
        return replace_children(output, el('p', { class: 'sl-error', role: 'alert' }, tx('too_long', { chars: code.length, max: MAX_ASSIGN_CHARS })));
      }
      const with_code = (href) => { const url = new URL(href); url.searchParams.set('assign', code); return url.href; };
      const link = with_code(lab_url({ lab: this.#lab.id, lang: current_lang() }));
      const embedded = views.filter((view) => assignment.cells[view.cell_id].pick.length && !assignment.cells[view.cell_id].hidden);
      const snippet = embedded.map((view) => {
        const src = with_code(embed_url({ lab: this.#lab.id, cell_id: view.cell_id, values: {}, seed: null, lang: current_lang() }));
        return `<iframe src="${escape_attribute(src)}" title="${escape_attribute(view.plain_title)}" width="100%" height="${EMBED_HEIGHT_PX}" style="border:0" loading="lazy"></iframe>`;
      });
      if (snippet.length) snippet.push(`<script src="${escape_attribute(new URL('embed.js', link).href)}" defer></script>`);
      replace_children(output,
        el('label', { for: 'sl-assign-link', class: 'sl-label' }, tx('link_label')),
        el('input', { id: 'sl-assign-link', class: 'sl-input sl-assign-link', readonly: true, value: link }),
        snippet.length ? el('label', { for: 'sl-assign-embed', class: 'sl-label' }, tx('embed_label')) : null,
        snippet.length ? el('textarea', { id: 'sl-assign-embed', class: 'sl-input sl-assign-embed', readonly: true, rows: '4' }, snippet.join('\n')) : null);
      output.querySelector('.sl-assign-link').select();
    };
    this.#dialog = el('dialog', { class: 'sl-assign-dialog', 'aria-labelledby': 'sl-assign-title' },
      el('h2', { id: 'sl-assign-title' }, tx('dialog_title')),
      el('p', {}, tx('dialog_intro')),
      el('form', { method: 'dialog', class: 'sl-assign-form', on: { submit: (event) => { if (event.submitter?.value === 'make') { event.preventDefault(); make(); } } } },
        cells,
        el('div', { class: 'sl-assign-actions' },
          el('button', { type: 'submit', value: 'make', class: 'sl-button sl-button-primary sl-assign-make' }, tx('make')),
          el('button', { type: 'submit', value: 'close', class: 'sl-button sl-assign-close' }, tx('close'))),
        output));
    this.#dialog.addEventListener('close', () => { this.#dialog?.remove(); this.#dialog = null; this.#tools.querySelector('.sl-assign-open')?.focus(); });
    document.body.append(this.#dialog);
    this.#dialog.showModal();
  }
}

/** An assignment's limits on a cell's form: a locked parameter is disabled, with a note; a hidden one is not shown. */
function restrict(view, { lock, hide }) {
  for (const name of [...lock, ...hide]) {
    const box = view.element.querySelector(`.sl-form .sl-field[data-param="${CSS.escape(name)}"]`);
    if (!box) continue;
    if (hide.includes(name)) {
      box.hidden = true;
      box.dataset.restricted = 'hidden';
      continue;
    }
    box.dataset.restricted = 'locked';
    for (const control of box.querySelectorAll('input, select, button')) control.disabled = true;
    box.querySelector('.sl-locked-note')?.remove();
    box.append(el('p', { class: 'sl-locked-note' }, tx('locked_note')));
  }
}

// The snippet is text the teacher pastes into their own HTML, so quote it as an attribute value.
function escape_attribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
