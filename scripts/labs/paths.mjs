// Where the lab files are: labs/<lab>/lab.json (order, title, summary, status, the cells in page order),
// labs/<lab>/<cell>.json (one cell's text and presentation) and labs/<lab>/book/<cell>.json (the cell's book
// comparisons, if it has any).
import { readdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const LABS_DIR = join(ROOT, 'labs');

/** The lab files' JSON Schemas, in labs/schema/ (not a lab). */
export const SCHEMA_DIR_NAME = 'schema';

/** The folder of a lab's book files: labs/<lab>/book/. */
export const BOOK_DIR_NAME = 'book';

/** A cell's book file: labs/<lab>/book/<cell>.json. */
export function book_file_path(lab_id, cell_name, labs_dir = LABS_DIR) {
  return join(labs_dir, lab_id, BOOK_DIR_NAME, `${cell_name}.json`);
}

/** The .json file names in a folder, sorted ([] if there is no such folder). */
export async function json_names(dir) {
  let names;
  try { names = await readdir(dir); } catch (error) { if (error.code === 'ENOENT') return []; throw error; }
  return names.filter((name) => name.endsWith('.json')).sort();
}

/** Every lab folder's id, sorted. */
export async function lab_ids(labs_dir = LABS_DIR) {
  const entries = await readdir(labs_dir, { withFileTypes: true });
  return entries.filter((entry) => entry.isDirectory() && entry.name !== SCHEMA_DIR_NAME).map((entry) => entry.name).sort();
}

/** Every lab file under labs/ (labs/<lab>/*.json, then labs/<lab>/book/*.json), sorted within each folder. */
export async function lab_file_paths(labs_dir = LABS_DIR) {
  const paths = [];
  for (const lab of await lab_ids(labs_dir)) {
    for (const dir of [join(labs_dir, lab), join(labs_dir, lab, BOOK_DIR_NAME)])
      paths.push(...(await json_names(dir)).map((name) => join(dir, name)));
  }
  return paths;
}
