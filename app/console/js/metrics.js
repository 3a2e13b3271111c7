// Reading the Prometheus text exposition of GET /metrics: histogram buckets of one metric,
// merged over the label sets that match, and quantiles from them.

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

// [{name, labels: {…}, value}] of every sample line.
export function parse(text) {
  const samples = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const labels = {};
    for (const [, k, v] of (m[2] || "").matchAll(LABEL)) labels[k] = v.replace(/\\(.)/g, "$1");
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

// Cumulative buckets [[le, count], …] (le ascending, +Inf last) of histogram `name`, summed
// over every series whose labels include `match`.
export function buckets(samples, name, match) {
  const sums = new Map();
  for (const s of samples) {
    if (s.name !== `${name}_bucket`) continue;
    if (!Object.entries(match).every(([k, v]) => s.labels[k] === v)) continue;
    const le = s.labels.le === "+Inf" ? Infinity : Number(s.labels.le);
    sums.set(le, (sums.get(le) || 0) + s.value);
  }
  return [...sums.entries()].sort((a, b) => a[0] - b[0]);
}

// The q-quantile (0..1) of cumulative buckets, interpolated linearly inside its bucket the
// way PromQL's histogram_quantile() does (above the last finite bound: that bound). null
// without observations.
export function quantile(q, cumulative) {
  if (!cumulative.length) return null;
  const total = cumulative.at(-1)[1];
  if (!total) return null;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [le, count] of cumulative) {
    if (count >= rank) {
      if (le === Infinity) return lower;
      if (count === below) return le;
      return lower + ((le - lower) * (rank - below)) / (count - below);
    }
    lower = le;
    below = count;
  }
  return lower;
}
