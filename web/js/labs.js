// Reading the lab manifest (labs/index.json, written by scripts/build.mjs) and one lab in one language.

import { localize } from './localize.js';

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

const lab_files = new Map();   // id → promise of the lab file (both languages), fetched once per page

/**
 * The lab in one language, or null: labs/<id>.json holds both ({en, vi} at every translated value), fetched
 * once per page, so a language switch reads nothing more from the network.
 */
export async function fetch_lab(id, lang) {
  if (!LAB_ID.test(id)) return null;
  if (!lab_files.has(id)) {
    const url = `labs/${id}.json`;
    lab_files.set(id, fetch(url).then((response) => {
      if (response.status === 404) return null;
      if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
      return response.json();
    }));
    lab_files.get(id).catch(() => lab_files.delete(id));   // a failed fetch is tried again next time
  }
  const lab = await lab_files.get(id);
  return lab && localize(lab, lang);
}

const chart_files = new Map();   // id → promise of {cell id: {chart id: {spec (Vega-Lite), summary}}}

/**
 * A lab's chart specs and summaries (labs/<id>.charts.json), fetched once, when its page first draws a chart. The
 * request leaves in a task of its own: a cell draws as it shows its first result, and the file comes after it.
 */
export function fetch_chart_specs(id) {
  if (!chart_files.has(id)) {
    chart_files.set(id, new Promise((resolve) => { setTimeout(resolve, 0); }).then(() => fetch_json(`labs/${id}.charts.json`)));
    chart_files.get(id).catch(() => chart_files.delete(id));   // tried again at the next drawing
  }
  return chart_files.get(id);
}

const why_files = new Map();   // id → promise of {cell id: [each "Why?" section's text, both languages]}

/** The text of a lab's "Why?" sections (labs/<id>.why.json), fetched once, when a reader first opens one. */
export function fetch_why(id) {
  if (!why_files.has(id)) {
    why_files.set(id, fetch_json(`labs/${id}.why.json`));
    why_files.get(id).catch(() => why_files.delete(id));   // tried again at the next opening
  }
  return why_files.get(id);
}
