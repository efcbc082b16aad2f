// What a reader types into a number field, in their language, turned into the text C++ parses (which
// accepts only the C locale's "0.5"), and back. The page converts notation only; C++ validates.
//   vi: "0,5" → "0.5"; "1.000" or "1.000,5" (thousands separators) → "1000", "1000.5", with a note saying so.
//   en: "1,000" → "1000" with a note; "0,5" is passed on unchanged and C++ rejects it as not a number.
// A "." that is not a run of thousands groups ("0.5", "1e-6") keeps its C meaning in both languages.

const GROUPED = {
  en: /^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/,
  vi: /^[+-]?\d{1,3}(\.\d{3})+(,\d+)?$/,
};

/** {text, note}: text for C++; note: true when separators were removed (the page then shows the number read). */
export function to_c_number(typed, lang) {
  const text = String(typed).trim();
  if (GROUPED[lang]?.test(text)) {
    const plain = lang === 'vi' ? text.replace(/\./g, '').replace(',', '.') : text.replace(/,/g, '');
    return { text: plain, note: true };
  }
  if (lang === 'vi' && /^[+-]?\d*,\d+$/.test(text)) return { text: text.replace(',', '.'), note: false };
  return { text, note: false };
}

/** The C text of a number as the reader's language writes it in a field: "0.5" → "0,5" in vi. */
export function from_c_number(text, lang) {
  const value = String(text);
  return lang === 'vi' && /^[+-]?\d*\.\d+$/.test(value) ? value.replace('.', ',') : value;
}
