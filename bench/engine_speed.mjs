// Benchmark (not a test): the LLM serving engine's speed natively and in wasm (node, V8 as in Chromium), side by
// side in one run (issue 16: 10^5 requests through one engine in <= 1 s and a 10-point llm/fleet sweep of 20,000
// requests a point in <= 3 s, in the browser).
//   node bench/engine_speed.mjs     (after building build/native and build/wasm; SERVING_LAB_WASM_DIR=... for
//                                    another wasm build, e.g. an older one, beside this native build)
// 1. One engine, 10^5 requests: llm/fleet with one replica and only chats is llm/continuous-batching's default
//    workload (a test checks they are equal); bench_continuous_batching runs that engine alone and counts its steps,
//    and its tok/s must equal the cell's (the same run), so steps/s is steps / the cell's time on each side.
// 2. The fleet sweep: llm/fleet --n 20000 --sweep_points 10 --sweep_to 10 (replicas 1..10), the whole cell.
// Times are medians of 3 runs of the whole cell (wall clock), natively by bench/cell_timing.
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { loadModule, root } from '../tests/wasm/load_module.mjs';

const repeats = 3;
const one_engine = { n: '100000', sweep: 'none', replicas: '1', lambda: '18', doc_frac: '0', max_model_len: '2048' };
const sweep = { n: '20000', sweep_points: '10', sweep_to: '10' };

function nativeCell(cell, inputs) {
  const args = [cell, '--repeats', String(repeats)];
  for (const [k, v] of Object.entries(inputs)) args.push(`--${k}`, v);
  try {
    return JSON.parse(execFileSync(path.join(root, 'build/native/cell_timing'), args, { encoding: 'utf8' })).median_s;
  } catch (e) {
    return { refused: String(e.stderr || e.message).trim() };
  }
}

function wasmCell(M, cell, inputs) {
  const times = [];
  let result = null;
  for (let i = 0; i < repeats; i++) {
    const t0 = performance.now();
    result = M.run(cell, inputs, '1', null);
    times.push((performance.now() - t0) / 1e3);
    if (result.error) return { refused: result.error.message, result };
  }
  times.sort((a, b) => a - b);
  return { s: times[Math.floor(times.length / 2)], result };
}

const engine = JSON.parse(
  execFileSync(path.join(root, 'build/native/bench_continuous_batching'), ['100000'], { encoding: 'utf8' })
    .trim().split('\n').pop());
const M = await loadModule();
const show = (s) => (typeof s === 'number' ? s.toFixed(3).padStart(9) : '  refused');
const rate = (count, s) => (typeof s === 'number' ? (count / s).toExponential(2).padStart(10) : '         -');

console.log(`one engine, 10^5 requests: ${engine.steps} steps (bench_continuous_batching's engine alone natively, with prefix` +
            ` caching on as in llm/continuous-batching: ${engine.cpu_s.toFixed(3)} s CPU, ${engine.wall_s.toFixed(3)} s wall, best of 5;` +
            ' the fleet cell runs without it)');
const native1 = nativeCell('llm/fleet', one_engine);
const wasm1 = wasmCell(M, 'llm/fleet', one_engine);
if (wasm1.result && !wasm1.result.error && wasm1.result.outputs.tok_per_s !== engine.tok_per_s)
  console.log(`  warning: the cell's tok/s ${wasm1.result.outputs.tok_per_s} differs from the engine's ${engine.tok_per_s}: ` +
              'steps/s below is not the cell\'s');
console.log('                      native s   wasm s  wasm/native   native req/s  wasm req/s  native steps/s  wasm steps/s');
const ratio = (w, n) => (typeof w === 'number' && typeof n === 'number' ? (w / n).toFixed(2) : '-').padStart(12);
console.log(`llm/fleet 1 x 10^5    ${show(native1)} ${show(wasm1.s)} ${ratio(wasm1.s, native1)}` +
            `     ${rate(engine.requests, native1)}  ${rate(engine.requests, wasm1.s)}      ${rate(engine.steps, native1)}` +
            `    ${rate(engine.steps, wasm1.s)}`);
const native2 = nativeCell('llm/fleet', sweep);
const wasm2 = wasmCell(M, 'llm/fleet', sweep);
console.log(`llm/fleet 10 x 20000  ${show(native2)} ${show(wasm2.s)} ${ratio(wasm2.s, native2)}     (10 points of 20,000 requests, replicas 1..10)`);
for (const r of [native2, wasm2]) if (r && r.refused) console.log(`  refused: ${r.refused}`);
