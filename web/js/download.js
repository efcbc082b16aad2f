// Downloads made in the page from what it already shows: a chart as SVG or PNG, a table as CSV, a result as
// JSON. Nothing is computed here; CSV quotes every text cell that needs it (RFC 4180).

/** Saves text or a Blob under file_name. */
export function save(file_name, content, type = 'text/plain') {
  const blob = content instanceof Blob ? content : new Blob([content], { type });
  const url = URL.createObjectURL(blob);
  save_url(file_name, url);
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves what a URL (a data: or blob: URL) holds under file_name. */
export function save_url(file_name, url) {
  const link = document.createElement('a');
  link.href = url;
  link.download = file_name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
}

/** headers: [text]; rows: [[value]] → CSV text. Numbers are written in full (C's notation), text quoted as needed. */
export function to_csv(headers, rows) {
  const cell = (value) => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
    const text = String(value);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [headers, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}

/**
 * A result from the worker as the JSON text `serving-lab run --json` prints: the same fields in the same
 * order (both are written from core/result_fields.h), typed arrays as arrays, non-finite numbers as null.
 */
export function result_json(result) {
  const { superseded, cancelled, error, ...fields } = result;
  return JSON.stringify(fields, (key, value) => (ArrayBuffer.isView(value) ? Array.from(value) : value), 2) + '\n';
}
