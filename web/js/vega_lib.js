// Loaded on demand (a separate chunk), so the form and the numbers appear before Vega has loaded.
export { default as embed } from 'vega-embed';
export { expressionInterpreter } from 'vega-interpreter';
