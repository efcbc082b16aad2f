// Benchmark (not a test): every cell through the native CLI at its defaults and with each numeric parameter at
// its minimum and at its maximum, one at a time (issue 15: no valid input may take more than ~4 s natively, i.e.
// 10 s in a browser at 2.5x, or 1 GiB). Prints, per cell, its slowest accepted input with the wall time and the
// peak memory (max RSS, /usr/bin/time), how many corners the budget refused, and any run that failed otherwise
// (a crash, an abort, a hang past --timeout) as a finding.
//   node bench/corner_sweep.mjs [--bin build/native/serving-lab] [--timeout 30] [cell-prefix]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { loadavg, cpus } from 'node:os';

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: { bin: { type: 'string', default: 'build/native/serving-lab' }, timeout: { type: 'string', default: '30' } },
});
const prefix = positionals[0] ?? '';
const specs = JSON.parse(spawnSync(options.bin, ['list', '--json'], { encoding: 'utf8' }).stdout)
  .filter((spec) => spec.id.startsWith(prefix));

function run(cell, flags) {
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %M', options.bin, 'run', cell, ...flags, '--json'],
    { encoding: 'utf8', timeout: Number(options.timeout) * 1000, maxBuffer: 1 << 30 });
  if (r.error || r.signal) return { outcome: 'finding', why: `killed after ${options.timeout} s (${r.signal ?? r.error.code})` };
  const time = r.stderr.split('\n').filter((l) => l.startsWith('TIME ')).pop();
  const [, secs, kib] = time ? time.split(' ') : [0, NaN, NaN];
  const error = r.stderr.split('\n').find((l) => l.startsWith('error:')) ?? '';
  if (r.status === 0) return { outcome: 'ok', secs: Number(secs), mib: Number(kib) / 1024 };
  if (r.status === 2 || r.status === 1) return { outcome: /too_large|at most|budget/.test(error) ? 'refused' : 'rejected', why: error };
  return { outcome: 'finding', why: `exit ${r.status}: ${error || r.stderr.slice(-200)}` };
}

console.log(`load before: ${loadavg().map((x) => x.toFixed(2)).join(' ')} (${cpus().length} cores)`);
console.log(['cell', 'slowest accepted input', 's', 'MiB', 'corners ok/refused/rejected', 'findings'].join(' | '));
let findings = 0;
for (const spec of specs) {
  const corners = [[]];
  for (const p of spec.params) {
    if (p.kind !== 'real' && p.kind !== 'count') continue;
    for (const value of [p.min, p.max]) if (value !== undefined && value !== p.default) corners.push([`--${p.name}`, String(value)]);
  }
  let slowest = null;
  const counts = { ok: 0, refused: 0, rejected: 0, finding: 0 };
  const found = [];
  for (const flags of corners) {
    const r = run(spec.id, flags);
    counts[r.outcome] += 1;
    if (r.outcome === 'ok' && (!slowest || r.secs > slowest.secs)) slowest = { ...r, flags };
    if (r.outcome === 'finding') found.push(`${flags.join(' ') || 'defaults'}: ${r.why}`);
  }
  findings += found.length;
  console.log([spec.id, slowest ? (slowest.flags.join(' ') || 'defaults') : '-', slowest?.secs.toFixed(2) ?? '-',
    slowest ? slowest.mib.toFixed(0) : '-', `${counts.ok}/${counts.refused}/${counts.rejected}`, found.join('; ') || '0'].join(' | '));
}
console.log(`load after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}; findings: ${findings}`);
