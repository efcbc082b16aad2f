// Reading the lab manifest (labs/index.json, written by scripts/build.mjs) and one lab file.

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

/** The lab file labs/<id>.json, or null when there is no such lab. */
export async function fetch_lab(id) {
  if (!LAB_ID.test(id)) return null;
  const response = await fetch(`labs/${id}.json`);
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(`labs/${id}.json: HTTP ${response.status}`);
  return response.json();
}
