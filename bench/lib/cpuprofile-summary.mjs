// Summarises a `node --cpu-prof` profile: self time by function (top N) and, with
// `--inclusive <name>`, the total time under functions of that name. A measuring tool for
// bench notes; never part of `bench/run.mjs`.
//
//   node bench/lib/cpuprofile-summary.mjs <file.cpuprofile> [--top 40] [--inclusive name,...]
import { readFileSync } from 'node:fs';

const [file] = process.argv.slice(2);
const argument = (name, fallback) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : process.argv[index + 1];
};
const top = Number(argument('--top', '40'));
const inclusive = argument('--inclusive', '').split(',').filter(Boolean);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const counts = new Map();
for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
const total = profile.samples.length;
const label = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${url.replace(/^.*\/(node_modules\/)?/, '')}:${lineNumber + 1}` : '';
  return `${functionName || '(anonymous)'} ${where}`.trim();
};
const self = new Map();
const under = new Map(inclusive.map((name) => [name, 0]));
for (const [id, count] of counts) {
  const node = nodes.get(id);
  const name = label(node);
  self.set(name, (self.get(name) ?? 0) + count);
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) {
    const fn = nodes.get(at).callFrame.functionName;
    if (under.has(fn) && !seen.has(fn)) {
      seen.add(fn);
      under.set(fn, under.get(fn) + count);
    }
  }
}
const pct = (count) => `${((100 * count) / total).toFixed(1).padStart(5)} %`;
console.log(`${total} samples`);
for (const [name, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${pct(count)}  ${name}`);
}
for (const [name, count] of under) console.log(`inclusive ${pct(count)}  ${name}`);
// Self time by source file (src/… or a package), for a profile of a run from src/ under tsx.
const byFile = new Map();
for (const [id, count] of counts) {
  const { url } = nodes.get(id).callFrame;
  const key = url.includes('/src/')
    ? url.slice(url.indexOf('/src/') + 1)
    : url.includes('node_modules/')
      ? `pkg:${url.split('node_modules/').pop().split('/')[0]}`
      : url.startsWith('node:')
        ? 'node:internal'
        : url || nodes.get(id).callFrame.functionName || '(native)';
  byFile.set(key, (byFile.get(key) ?? 0) + count);
}
console.log('--- self time by file');
for (const [name, count] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${pct(count)}  ${name}`);
}
