// "More parameters", sorted: one folded section per group C++ declares (ParamSpec::group, shown here in its
// declaration order) and, over eight or more, a filter box. Loaded when "More parameters" first opens (param_form.js),
// with its labels (i18n/<lang>.groups.json): a page's first result needs neither. It imports nothing: the
// caller passes el (dom.js), fill and the language (i18n.js), so that the bundle splits no chunk for it.

const STYLESHEET = 'css/param_groups.css';
const FILTER_MIN_FIELDS = 8;   // fewer fields under "More parameters": no filter box
const labels_of = new Map();   // lang → Promise of {filter, shown, groups}

/** The labels of the current language: the built site's groups file, else the unbuilt i18n/<lang>.json's. */
function labels(lang) {
  if (!labels_of.has(lang)) {
    const get = (path) => fetch(path).then((response) => (response.ok ? response.json() : Promise.reject(new Error(path))));
    labels_of.set(lang, get(`i18n/${lang}.groups.json`).catch(() => get(`i18n/${lang}.json`).then((all) => all.param_groups))
      .catch(() => ({})));
  }
  return labels_of.get(lang);
}

/**
 * Sorts the fields of `box` (the body of "More parameters", each field a [data-param] element) into one <details>
 * per group of spec.params, and, from FILTER_MIN_FIELDS fields, puts a filter box above them: typing shows only the
 * fields whose name or label holds the text, opens the groups that have one and hides the others, and says how many
 * are shown.
 */
export async function group_fields({ spec, box, id_prefix, el, fill, lang }) {
  if (!document.querySelector(`link[href="${STYLESHEET}"]`)) document.head.append(el('link', { rel: 'stylesheet', href: STYLESHEET }));
  const text = await labels(lang);
  const fields = [...box.children].filter((child) => child.dataset.param);
  const group_of = new Map(spec.params.map((param) => [param.name, param.group || 'other']));
  const order = [...new Set([...spec.params.map((param) => param.group || 'other'), 'other'])];
  const members = new Map(order.map((group) => [group, fields.filter((field) => (group_of.get(field.dataset.param) || 'other') === group)]));
  const grouped = spec.params.some((param) => param.group);
  // Each summary is the group's label and count, written by filter() below.
  const sections = grouped
    ? order.filter((group) => members.get(group).length).map((group) => el('details', { class: 'sl-param-group', 'data-group': group },
      el('summary', {}), el('div', { class: 'sl-params' }, members.get(group))))
    : [el('div', { class: 'sl-params' }, fields)];
  const input_id = `${id_prefix}-param-filter`;
  const input = el('input', { id: input_id, type: 'search', class: 'sl-input', autocomplete: 'off', spellcheck: 'false' });
  const status = el('p', { class: 'sl-hint', role: 'status' });
  const filter = () => {
    const query = input.value.trim().toLowerCase();
    const in_use = fields.filter((field) => !field.hidden);   // a parameter unused at these choices stays out of the count
    let shown = 0;
    for (const field of fields) {
      const label = field.querySelector('label')?.textContent || '';
      const match = !query || field.dataset.param.toLowerCase().includes(query) || label.toLowerCase().includes(query);
      field.style.display = match ? '' : 'none';
      if (match && !field.hidden) shown += 1;
    }
    for (const section of sections) {
      const group = section.dataset.group;
      if (!group) continue;
      const group_fields = members.get(group);
      const any = group_fields.some((field) => field.style.display !== 'none' && !field.hidden);
      section.hidden = !any;
      if (query) section.open = any;
      // The parameters these choices use, as "More parameters" counts them.
      section.firstChild.textContent = `${text.groups?.[group] || group} (${group_fields.filter((field) => !field.hidden).length})`;
    }
    status.textContent = fill(text.shown || '{shown} / {total}', { shown, total: in_use.length });
  };
  input.addEventListener('input', filter);
  // A choice showed or hid parameters (param_form.js): counted again, and the groups of those it brought into use
  // open (workload = trace shows the trace file's field in its group, as the reader asked for it).
  let unused = new Set(fields.filter((field) => field.hidden));
  box.addEventListener('sl-relevance', () => {
    filter();
    for (const field of unused) if (!field.hidden) open_group_of(field);
    unused = new Set(fields.filter((field) => field.hidden));
  });
  box.className = 'sl-param-sections';
  // A filter earns its place over a long list; a few fields are read at a glance.
  const filter_box = fields.length >= FILTER_MIN_FIELDS
    ? el('div', { class: 'sl-param-filter' }, el('label', { for: input_id, class: 'sl-label' }, text.filter || 'Filter'), input, status)
    : null;
  box.replaceChildren(...(filter_box ? [filter_box] : []), ...sections);
  filter();
  // A field marked invalid before the groups were made: its group opens.
  for (const control of box.querySelectorAll('[aria-invalid="true"]')) open_group_of(control);
}

/** Opens the group section holding `element`, if it is in one. */
function open_group_of(element) {
  const group = element.closest('.sl-param-group');
  if (group) group.open = true;
}
