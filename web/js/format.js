// Number formatting only: the page never computes what C++ computes.
import { current_lang } from './i18n.js';

const SIGNIFICANT_DIGITS = 4;

/** 160.523 → "160.5", 1e-9 → "1e-9", 100000 → "100,000" (en) / "100.000" (vi); NaN → "—". */
export function format_number(x, digits = SIGNIFICANT_DIGITS) {
  if (typeof x === 'string') return x;
  if (typeof x === 'boolean') return String(x);
  if (x === null || x === undefined || Number.isNaN(x)) return '—';
  if (!Number.isFinite(x)) return x > 0 ? '∞' : '−∞';
  const magnitude = Math.abs(x);
  if (magnitude !== 0 && (magnitude < 1e-3 || magnitude >= 1e12)) return format_exponential(x, digits);
  return number_format(current_lang(), digits).format(x);
}

// One Intl.NumberFormat per language and precision, made once: a lab page formats thousands of numbers, and
// making a formatter for each took 90-140 ms of the queues page's main thread in a profile (30 ms with this cache).
const number_formats = new Map();
function number_format(lang, digits) {
  const key = `${lang} ${digits}`;
  let format = number_formats.get(key);
  if (!format) number_formats.set(key, format = new Intl.NumberFormat(lang, { maximumSignificantDigits: digits }));
  return format;
}

/** 1.2e-9 with trailing zeros of the mantissa removed: 1.000e-9 → 1e-9. */
function format_exponential(x, digits) {
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  const sign = exponent.startsWith('-') ? '-' : '';
  return `${trimmed.replace('-', '−')}e${sign}${exponent.replace(/^[+-]/, '')}`;
}

/**
 * A limit from C++ arrives as a number or a string such as "1e+07"; shown for readers, not as code:
 * 10000000 → "10,000,000", 1e-6 → "10⁻⁶", 2.5e-7 → "2.5 × 10⁻⁷".
 */
export function format_limit(value) {
  const number = typeof value === 'number' ? value : Number(value);
  if (value === '' || !Number.isFinite(number)) return String(value);
  const text = format_number(number, 15);
  const match = /^(−?[\d.,]+)e(-?)(\d+)$/.exec(text);
  if (!match) return text;
  const [, mantissa, sign, exponent] = match;
  const power = `10${superscript(`${sign}${exponent}`)}`;
  if (mantissa === '1') return power;
  if (mantissa === '−1') return `−${power}`;
  return `${format_number(Number(mantissa.replace('−', '-')), 15)} × ${power}`;
}

const SUPERSCRIPT = { '-': '⁻', 0: '⁰', 1: '¹', 2: '²', 3: '³', 4: '⁴', 5: '⁵', 6: '⁶', 7: '⁷', 8: '⁸', 9: '⁹' };
function superscript(digits) { return [...digits].map((c) => SUPERSCRIPT[c] ?? c).join(''); }

/**
 * A book difference without floating-point noise: below 1e-9 of the larger magnitude it prints as 0
 * (C++ computes the difference; this decides only how it reads).
 */
export function clean_difference(difference, book, ours) {
  const scale = Math.max(Math.abs(book), Math.abs(ours));
  return Math.abs(difference) <= 1e-9 * scale ? 0 : difference;
}

/** Signed number for differences: "+0.25", "−1.2". */
export function format_signed(x) {
  const text = format_number(x);
  return x > 0 ? `+${text}` : text;
}


/** 0.0123 s → "12 ms"; used for run timers. */
export function format_duration_ms(ms) {
  return ms < 1000 ? `${format_number(ms, 3)} ms` : `${format_number(ms / 1000, 3)} s`;
}
