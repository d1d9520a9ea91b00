// generate_bleu_vectors.mjs -- writes tests/data/js/bleu_smoothing_vectors.jsonl
//
// Random VALID bleu-smoothing-compute@1.0.0 inputs, each with the exact envelope text that the
// independent JavaScript reference (mtcompute_ref.mjs) produces for it. The Python
// implementation must reproduce output_text byte for byte (tests/test_reference_agreement.py).
// The file pins the JavaScript floating point (Math.log, Math.exp, toFixed, JSON.stringify)
// so the Python side can be checked without Node installed.
//
// Deterministic: a fixed-seed PRNG (sfc32), so re-running gives the same file.
// Usage (from the repository root):  node tests/reference/generate_bleu_vectors.mjs [count]

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { execute } from "./mtcompute_ref.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT = join(HERE, "..", "data", "js", "bleu_smoothing_vectors.jsonl");
const COUNT = Number(process.argv[2] ?? 6000);
const MAX = 1e12;

// sfc32, seeded with fixed constants.
function sfc32(a, b, c, d) {
  return function next32() {
    a >>>= 0; b >>>= 0; c >>>= 0; d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return t >>> 0;
  };
}
const next32 = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, 0x8e0d3b6e);
for (let k = 0; k < 20; k++) next32();

// Uniform double in [0, 1) with 53 random bits.
function random() {
  const hi = next32() >>> 5; // 27 bits
  const lo = next32() >>> 6; // 26 bits
  return (hi * 67108864 + lo) / 9007199254740992;
}
// Uniform integer in [lo, hi] (hi - lo < 2^53).
function randInt(lo, hi) {
  return lo + Math.floor(random() * (hi - lo + 1));
}
function chance(p) {
  return random() < p;
}
function pick(list) {
  return list[randInt(0, list.length - 1)];
}
// Integer in [0, hi] drawn log-uniformly (so small and huge values both appear).
function logInt(hi) {
  if (hi <= 0) return 0;
  const x = Math.floor(Math.exp(random() * Math.log(hi + 1)));
  return Math.min(hi, Math.max(0, x - (chance(0.5) ? 1 : 0)));
}

function randomLength() {
  const kind = randInt(0, 5);
  if (kind === 0) return randInt(0, 5);
  if (kind === 1) return randInt(0, 60);
  if (kind === 2) return randInt(0, 100000);
  if (kind === 3) return logInt(MAX);
  if (kind === 4) return MAX - randInt(0, 3);
  return randInt(0, MAX);
}

function randomEpsilon() {
  return pick([
    () => random(),
    () => 0,
    () => 1,
    () => 0.1,
    () => 0.5,
    () => 1e-7,
    () => 5e-324,
    () => 2.2250738585072014e-308,
    () => Math.exp(-random() * 700),
    () => Number(random().toFixed(randInt(1, 4))),
    () => 0.000001,
    () => 1 - Number.EPSILON / 2,
  ])();
}

function randomInput() {
  const N = randInt(1, 8);
  const c = randomLength();
  let r;
  const rKind = randInt(0, 5);
  if (rKind === 0) r = c;
  else if (rKind === 1) r = 0;
  else if (rKind === 2) r = Math.min(MAX, c + randInt(0, 10));
  else if (rKind === 3) r = Math.max(0, c - randInt(0, 10));
  else r = randomLength();

  // totals: realistic BLEU totals (c - n + 1, or corpus-style c - segments*(n-1)), or arbitrary.
  const totals = [];
  const tKind = randInt(0, 3);
  const segments = randInt(1, 1000);
  for (let n = 0; n < N; n++) {
    if (tKind === 0) totals.push(Math.max(0, c - n));
    else if (tKind === 1) totals.push(Math.max(0, c - segments * n));
    else if (tKind === 2) totals.push(randomLength());
    else totals.push(chance(0.2) ? 0 : randomLength());
  }

  // matches: m_n <= l_n; sometimes zeros; sometimes m_1 = 0 (then all zero).
  const matches = [];
  const allZero = chance(0.08);
  const zeroRate = pick([0, 0.1, 0.3, 0.6]);
  for (let n = 0; n < N; n++) {
    const l = totals[n];
    let m;
    if (allZero || l === 0) m = 0;
    else if (n > 0 && chance(zeroRate)) m = 0;
    else {
      const mKind = randInt(0, 3);
      if (mKind === 0) m = l;
      else if (mKind === 1) m = randInt(0, l);
      else if (mKind === 2) m = Math.floor(l * Math.pow(0.7, n + random()));
      else m = logInt(l);
    }
    matches.push(m);
  }
  if (matches[0] === 0) matches.fill(0);

  const smoothing = pick(["none", "method1", "method2", "method3"]);
  const input = { matches, totals, candidate_length: c, reference_length: r, smoothing };
  if (smoothing === "method1" && chance(0.6)) input.epsilon = randomEpsilon();
  const eo = randInt(0, 2);
  if (eo === 1) input.effective_order = true;
  if (eo === 2) input.effective_order = false;
  if (chance(0.35)) input.decimals = randInt(0, 15);
  return input;
}

const lines = [];
for (let k = 0; k < COUNT; k++) {
  const input = randomInput();
  const envelope = execute("bleu-smoothing-compute", "1.0.0", input);
  if (!envelope.result) {
    throw new Error(`generator made an invalid input: ${JSON.stringify(input)} -> ${JSON.stringify(envelope)}`);
  }
  lines.push(JSON.stringify({ input, output_text: JSON.stringify(envelope) }));
}
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, lines.join("\n") + "\n");
console.log(`wrote ${lines.length} vectors to ${OUT}`);
