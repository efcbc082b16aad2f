// The locale conversion of number fields (web/js/number_text.js), without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { to_c_number, from_c_number } from '../../web/js/number_text.js';

test('vi: a decimal comma is a decimal point; thousands dots are removed and noted, never read as 1', () => {
  assert.deepEqual(to_c_number('0,5', 'vi'), { text: '0.5', note: false });
  assert.deepEqual(to_c_number('1.000', 'vi'), { text: '1000', note: true });
  assert.deepEqual(to_c_number('12.345.678,25', 'vi'), { text: '12345678.25', note: true });
  assert.deepEqual(to_c_number(' 0.5 ', 'vi'), { text: '0.5', note: false });
  assert.deepEqual(to_c_number('1e-6', 'vi'), { text: '1e-6', note: false });
  assert.deepEqual(to_c_number('1,2,3', 'vi'), { text: '1,2,3', note: false });   // left for C++ to reject
});

test('en: thousands commas are removed and noted; a decimal comma is left for C++ to reject', () => {
  assert.deepEqual(to_c_number('1,000', 'en'), { text: '1000', note: true });
  assert.deepEqual(to_c_number('0,5', 'en'), { text: '0,5', note: false });
  assert.deepEqual(to_c_number('0.5', 'en'), { text: '0.5', note: false });
});

test('a C number shows with the language decimal sign', () => {
  assert.equal(from_c_number('0.5', 'vi'), '0,5');
  assert.equal(from_c_number('1e-6', 'vi'), '1e-6');
  assert.equal(from_c_number('0.5', 'en'), '0.5');
  assert.equal(from_c_number('160', 'vi'), '160');
});
