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
  return new Intl.NumberFormat(current_lang(), { maximumSignificantDigits: digits }).format(x);
}

/** 1.2e-9 with trailing zeros of the mantissa removed: 1.000e-9 → 1e-9. */
function format_exponential(x, digits) {
  const [mantissa, exponent] = x.toExponential(digits - 1).split('e');
  const trimmed = mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa;
  const sign = exponent.startsWith('-') ? '-' : '';
  return `${trimmed.replace('-', '−')}e${sign}${exponent.replace(/^[+-]/, '')}`;
}

/** A limit from C++ arrives as a number or a string such as "1e+07"; show it like other numbers. */
export function format_limit(value) {
  const number = typeof value === 'number' ? value : Number(value);
  return value !== '' && Number.isFinite(number) ? format_number(number, 15) : String(value);
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
