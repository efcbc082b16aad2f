// Reading the lab manifest (labs/index.json, written by scripts/build.mjs) and one lab in one language.

const LAB_ID = /^[a-z0-9][a-z0-9-]*$/;

export async function fetch_json(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

/** [{id, order, status, title, summary}, ...] in order. */
export async function fetch_lab_index() {
  const index = await fetch_json('labs/index.json');
  return [...index.labs].sort((a, b) => a.order - b.order);
}

/** The lab in one language (labs/<id>.<lang>.json: its cells, text in that language only), or null. */
export async function fetch_lab(id, lang) {
  if (!LAB_ID.test(id)) return null;
  const url = `labs/${id}.${lang}.json`;
  const response = await fetch(url);
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}
