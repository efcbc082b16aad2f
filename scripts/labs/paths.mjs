// Where the lab files are: labs/<lab>/lab.json (order, title, summary, status, the cells in page order) and
// labs/<lab>/<cell>.json (one cell's text and presentation).
import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LABS_DIR = join(ROOT, 'labs');

/** The lab files' JSON Schemas, in labs/schema/ (not a lab). */
export const SCHEMA_DIR_NAME = 'schema';

/** Every lab folder's id, sorted. */
export async function lab_ids(labs_dir = LABS_DIR) {
  const entries = await readdir(labs_dir, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory() && entry.name !== SCHEMA_DIR_NAME).map((entry) => entry.name).sort();
}

/** Every .json file under labs/, sorted. */
export async function lab_file_paths(labs_dir = LABS_DIR) {
  const paths = [];
  for (const lab of await lab_ids(labs_dir)) {
    const names = (await readdir(join(labs_dir, lab))).filter((name) => name.endsWith('.json')).sort();
    paths.push(...names.map((name) => join(labs_dir, lab, name)));
  }
  return paths;
}
