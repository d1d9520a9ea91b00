// Test vectors for src/mtcompute/core/jsmath.py, computed by Node (V8).
//
// Run from the repository root (or anywhere; paths are relative to this file):
//
//     node tests/data/js/generate_vectors.mjs
//
// It (re)writes, next to this script, gzip-compressed text files:
//
//   log.txt.gz               "<x bits> <Math.log(x) bits>"
//   exp.txt.gz               "<x bits> <Math.exp(x) bits>"
//   to_fixed.txt.gz          "<x bits> <digits> <x.toFixed(digits)>"
//   number_to_string.txt.gz  "<x bits> <JSON.stringify(x)>"
//   int_to_string.txt.gz     "<decimal integer> <JSON.stringify(Number(BigInt(i)))>"
//
// "<bits>" is the 16-hex-digit IEEE-754 bit pattern of a double (NaN results
// are written as the canonical 7ff8000000000000).  Lines starting with "#"
// are comments.  The inputs come from a seeded splitmix64 PRNG implemented
// below (one independent stream per file), so re-running the script with
// the same Node version rewrites byte-identical files.  The shipped files were
// generated with Node v20.
//
// The inputs mimic what the BLEU computations produce (ratios of integer
// counts, smoothed ratios, means of sums of logs, brevity-penalty exponents,
// BLEU scores) plus edge cases and random doubles over the whole range.

import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const OUT_DIR = dirname(fileURLToPath(import.meta.url));
const MASK64 = (1n << 64n) - 1n;

// ---------------------------------------------------------------- helpers

const view = new DataView(new ArrayBuffer(8));

function bitsOf(x) {
  view.setFloat64(0, x);
  return view.getBigUint64(0);
}

function fromBits(b) {
  view.setBigUint64(0, BigInt.asUintN(64, b));
  return view.getFloat64(0);
}

function hex(x) {
  if (Number.isNaN(x)) return "7ff8000000000000";
  return bitsOf(x).toString(16).padStart(16, "0");
}

/** splitmix64 on BigInt: a small, well-known, deterministic generator. */
class Rng {
  constructor(seed) {
    this.state = BigInt.asUintN(64, BigInt(seed));
  }
  next64() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK64;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
    return z ^ (z >> 31n);
  }
  /** Uniform double in [0, 1). */
  float() {
    return Number(this.next64() >> 11n) / 2 ** 53;
  }
  /** Uniform integer in [lo, hi] (both safe integers). */
  int(lo, hi) {
    return lo + Number(this.next64() % BigInt(hi - lo + 1));
  }
  /** Integer in [1, max], log-uniformly distributed. */
  logInt(max) {
    const v = Math.floor(Math.exp(this.float() * Math.log(max)));
    return Math.min(max, Math.max(1, v));
  }
  /** Random 32-bit unsigned integer. */
  u32() {
    return Number(this.next64() >> 32n);
  }
  /** Double from random 64 bits. */
  anyDouble() {
    return fromBits(this.next64());
  }
  /** Double made of the given high word and a random low word. */
  withHigh(high) {
    return fromBits((BigInt(high >>> 0) << 32n) | BigInt(this.u32()));
  }
  pick(arr) {
    return arr[this.int(0, arr.length - 1)];
  }
}

function writeVectors(name, header, lines) {
  const text = header.map((h) => `# ${h}\n`).join("") + lines.join("\n") + "\n";
  writeFileSync(join(OUT_DIR, name), gzipSync(Buffer.from(text, "utf8"), { level: 9 }));
  console.log(`${name}: ${lines.length} vectors`);
}

/** Step `n` ulps away from x (n may be negative), staying on the bit lattice. */
function ulpStep(x, n) {
  // For positive finite x only.
  return fromBits(bitsOf(x) + BigInt(n));
}

function nearby(x, radius) {
  const out = [];
  for (let d = -radius; d <= radius; d++) {
    const b = bitsOf(Math.abs(x)) + BigInt(d);
    if (b < 0n || b >= 0x7ff0000000000000n) continue;
    const y = fromBits(b);
    out.push(x < 0 || Object.is(x, -0) ? -y : y);
  }
  return out;
}

const SPECIALS = [0, -0, Infinity, -Infinity, NaN, Number.MIN_VALUE, -Number.MIN_VALUE,
  2.2250738585072014e-308, 2.225073858507201e-308, Number.MAX_VALUE, -Number.MAX_VALUE,
  1, -1, 0.5, 2, Number.EPSILON];

/** A BLEU-like count ratio m/l (0 < m <= l) with l up to 1e12. */
function ratio(rng) {
  const l = rng.logInt(1e12);
  const m = rng.int(1, l);
  return m / l;
}

/** A BLEU-like precision, with one of the usual smoothing methods applied. */
function smoothedPrecision(rng) {
  const l = rng.logInt(rng.pick([100, 10000, 1e12]));
  const m = rng.int(0, l);
  switch (rng.int(0, 4)) {
    case 0:
      return m === 0 ? 1 / l : m / l;
    case 1: // "floor"/epsilon smoothing
      return m === 0 ? rng.pick([0.1, 0.01, 1e-9, rng.float() || 0.5]) / l : m / l;
    case 2: // exponential smoothing
      return m === 0 ? 1 / (2 ** rng.int(1, 60) * l) : m / l;
    case 3: // add-one smoothing
      return (m + 1) / (l + 1);
    default:
      return Math.max(m, 1) / l;
  }
}

// ---------------------------------------------------------------- log

function logInputs() {
  const rng = new Rng(0x6c6f67n); // "log"
  const xs = [];
  // All ratios m/l with 0 < m <= l <= 200.
  for (let l = 1; l <= 200; l++) for (let m = 1; m <= l; m++) xs.push(m / l);
  // Random ratios m/l with l up to 1e12.
  for (let n = 0; n < 30000; n++) xs.push(ratio(rng));
  // epsilon / l.
  for (let n = 0; n < 10000; n++) {
    const eps = n % 3 === 0 ? 0.1 : n % 3 === 1 ? 0.01 : 1 - rng.float(); // (0, 1]
    xs.push(eps / rng.logInt(1e12));
  }
  // 1 / (2^k * l).
  for (let n = 0; n < 6000; n++) xs.push(1 / (2 ** rng.int(1, 100) * rng.logInt(1e12)));
  // (m + 1) / (l + 1).
  for (let n = 0; n < 20000; n++) {
    const l = rng.logInt(1e12);
    xs.push((rng.int(0, l) + 1) / (l + 1));
  }
  // Mixed smoothed precisions.
  for (let n = 0; n < 10000; n++) xs.push(smoothedPrecision(rng));
  // Random positive doubles over the whole range (random bit patterns).
  for (let n = 0; n < 20000; n++) xs.push(Math.abs(rng.anyDouble()));
  // Random doubles in a few decades around 1.
  for (let n = 0; n < 5000; n++) xs.push(2 ** (rng.float() * 8 - 4));
  // Values near 1 (1 +- k ulp) and near other interesting points.
  xs.push(...nearby(1, 1000));
  for (const c of [Math.SQRT2, Math.SQRT1_2, 2, 0.5, Math.E, 10, 0.1]) xs.push(...nearby(c, 50));
  // Powers of two over the whole range, and their neighbours.
  for (let e = -1074; e <= 1023; e++) xs.push(2 ** e);
  for (let e = -1022; e <= 1023; e += 7) xs.push(...nearby(2 ** e, 2));
  // Subnormals.
  for (let n = 0; n < 3000; n++) xs.push(fromBits(rng.next64() & 0x000fffffffffffffn));
  for (let n = 1; n <= 64; n++) xs.push(fromBits(BigInt(n)), fromBits(0x000fffffffffffffn - BigInt(n)));
  // Branch boundaries of e_log.c, on the mantissa's top 20 bits.
  for (const m of [0x00000, 0x00001, 0x00002, 0xffffd, 0xffffe, 0xfffff, 0x6147a, 0x61479,
    0x6147b, 0x6b851, 0x6b850, 0x6b852, 0x6a09b, 0x6a09c, 0x6a09d, 0x6a09e]) {
    for (let n = 0; n < 60; n++) {
      const e = n < 20 ? 1023 + rng.int(-3, 3) : rng.int(1, 2046);
      xs.push(rng.withHigh((e << 20) | m));
    }
  }
  // Negative values, zeros, inf, NaN, extremes.
  xs.push(...SPECIALS);
  for (let n = 0; n < 200; n++) xs.push(-Math.abs(rng.anyDouble()));
  return xs;
}

// ---------------------------------------------------------------- exp

function expInputs() {
  const rng = new Rng(0x657870n); // "exp"
  const xs = [];
  // Means of sums of logs: s / N for N = 1..8 (plain loop sum, then divide).
  for (let n = 0; n < 40000; n++) {
    const N = (n % 8) + 1;
    const smooth = n % 2 === 1;
    let s = 0;
    for (let i = 0; i < N; i++) s += Math.log(smooth ? smoothedPrecision(rng) : ratio(rng));
    xs.push(s / N);
  }
  // Weighted form as some implementations write it: sum of w * log(p), w = 1/N.
  for (let n = 0; n < 5000; n++) {
    const N = rng.int(1, 8);
    let s = 0;
    for (let i = 0; i < N; i++) s += (1 / N) * Math.log(smoothedPrecision(rng));
    xs.push(s);
  }
  // Brevity penalty exponents 1 - r/c for integers r <= c.
  for (let c = 1; c <= 100; c++) for (let r = 0; r <= c; r++) xs.push(1 - r / c);
  for (let n = 0; n < 20000; n++) {
    const c = rng.logInt(1e12);
    xs.push(1 - rng.int(0, c) / c);
  }
  // Random doubles in the finite-result range, and in [-30, 0].
  for (let n = 0; n < 15000; n++) xs.push(rng.float() * 1460 - 750);
  for (let n = 0; n < 10000; n++) xs.push(-30 * rng.float());
  // Random bit patterns (mostly huge/tiny magnitudes).
  for (let n = 0; n < 5000; n++) xs.push(rng.anyDouble());
  // Around the overflow / underflow thresholds.
  const oT = 709.782712893384;
  const uT = -745.1332191019411;
  xs.push(...nearby(oT, 200), ...nearby(uT, 200));
  for (let n = 0; n < 2000; n++) xs.push(709 + rng.float() * 0.8); // k == 1024 path
  // Subnormal results.
  for (let n = 0; n < 5000; n++) xs.push(-708 - rng.float() * 37.2);
  xs.push(...nearby(-708.3964185322641, 20)); // exp() ~ 2^-1022
  // Tiny |x| < 2^-28, and around the 2^-28 boundary.
  for (let n = 0; n < 2000; n++) {
    const t = 2 ** -(28 + rng.float() * 1000);
    xs.push(n % 2 ? t : -t);
  }
  for (let n = 0; n < 2000; n++) {
    const x = fromBits(rng.next64() & 0x000fffffffffffffn);
    xs.push(n % 2 ? x : -x);
  }
  // Branch boundaries of e_exp.c on the high word of |x|, both signs.
  for (const h of [0x3e2fffff, 0x3e300000, 0x3e300001, 0x3fd62e41, 0x3fd62e42, 0x3fd62e43,
    0x3ff0a2b1, 0x3ff0a2b2, 0x3ff0a2b3, 0x40862e41, 0x40862e42, 0x40862e43]) {
    for (let n = 0; n < 100; n++) {
      const x = rng.withHigh(h);
      xs.push(n % 2 ? x : -x);
    }
  }
  for (const c of [0.5 * Math.LN2, 1.5 * Math.LN2, 1, -1, Math.LN2, -Math.LN2, 0.5, -0.5]) {
    xs.push(...nearby(c, 30));
  }
  // Integers and large magnitudes.
  for (let i = -750; i <= 710; i++) xs.push(i);
  xs.push(1e3, -1e3, 1e10, -1e10, 1e300, -1e300);
  xs.push(...SPECIALS);
  return xs;
}

// ---------------------------------------------------------------- toFixed

function toFixedCases() {
  const rng = new Rng(0x746f466978656en); // "toFixen"
  const cases = [];
  const bleu = () => {
    const N = 4;
    let s = 0;
    for (let i = 0; i < N; i++) s += Math.log(smoothedPrecision(rng));
    const c = rng.logInt(100000);
    const r = rng.int(1, 2 * c);
    const bp = r > c ? Math.exp(1 - r / c) : 1;
    return bp * Math.exp(s / N);
  };
  // BLEU values in [0, 1] and on the 0..100 scale, brevity penalties.
  for (let n = 0; n < 12000; n++) cases.push([bleu(), rng.int(0, 15)]);
  for (let n = 0; n < 6000; n++) cases.push([100 * bleu(), rng.int(0, 15)]);
  for (let n = 0; n < 3000; n++) {
    const c = rng.logInt(1e6);
    cases.push([Math.exp(1 - rng.int(c, 3 * c) / c), rng.int(0, 15)]);
  }
  // Random doubles in [0, 1] and random digit counts.
  for (let n = 0; n < 4000; n++) cases.push([rng.float(), rng.int(0, 20)]);
  for (let n = 0; n < 1000; n++) cases.push([rng.float(), rng.int(0, 100)]);
  // Random bit patterns (finite), random digits.
  for (let n = 0; n < 3000; n++) {
    const x = rng.anyDouble();
    if (Number.isFinite(x)) cases.push([x, rng.int(0, 100)]);
  }
  for (let n = 0; n < 2000; n++) cases.push([(rng.float() - 0.5) * 10 ** rng.int(-8, 22), rng.int(0, 20)]);
  // Exact ties k / 2^m (exact decimal ties at digits = m - 1), both signs.
  for (let m = 1; m <= 24; m++) {
    for (let n = 0; n < 40; n++) {
      const k = 2 * rng.int(0, 2 ** Math.min(m, 20)) + 1;
      const x = (k / 2 ** m) * (n % 4 === 3 ? -1 : 1) + (n % 5 === 4 ? rng.int(0, 100) : 0);
      cases.push([x, Math.max(0, m - 1 + rng.int(-1, 1))]);
    }
  }
  for (const x of [0.5, 1.5, 2.5, -0.5, -2.5, 0.125, 0.375, 0.625, 1.005, 1.0049999999999999,
    0.0000000000000005, 5e-16, 1.45, 8.345, 0.045, 1.255, 10.235, 0.615, 2.675]) {
    for (let d = 0; d <= 20; d++) cases.push([x, d]);
  }
  // Zeros, tiny negatives, boundaries of 1e21, large values.
  for (const x of [0, -0, -1e-7, -0.0000001, -0.004, -0.005, -0.0050000001, 1e-7, 1e-300,
    Number.MIN_VALUE, -Number.MIN_VALUE, 1, -1, 999999999999999999999, 1e21, -1e21,
    1e21 - 65536, -(1e21 - 65536), 1e22, 1.5e300, -Number.MAX_VALUE, Number.MAX_VALUE,
    2 ** 53, 2 ** 53 + 2, 123456789.123456789, 0.1, 0.2, 0.3, 1 / 3, 2 / 3]) {
    for (const d of [0, 1, 2, 3, 5, 10, 15, 20, 50, 100]) cases.push([x, d]);
  }
  for (const x of nearby(1e21, 50)) cases.push([x, rng.int(0, 10)], [-x, rng.int(0, 10)]);
  return cases.map(([x, d]) => `${hex(x)} ${d} ${x.toFixed(d)}`);
}

// ---------------------------------------------------------------- toString

function numberToStringInputs() {
  const rng = new Rng(0x746f537472696e67n); // "toString"
  const xs = [];
  // Random finite bit patterns.
  for (let n = 0; n < 10000; n++) {
    const x = rng.anyDouble();
    if (Number.isFinite(x)) xs.push(x);
  }
  // BLEU-like values and scores.
  for (let n = 0; n < 3000; n++) xs.push(smoothedPrecision(rng));
  for (let n = 0; n < 2000; n++) xs.push(100 * rng.float(), rng.float());
  // Short decimals and their neighbours.
  for (let n = 0; n < 1000; n++) xs.push(rng.int(0, 1e6) / 10 ** rng.int(0, 12));
  // Integers near 2^53 and other integers.
  xs.push(...nearby(2 ** 53, 100), ...nearby(-(2 ** 53), 100));
  for (let n = 0; n < 1000; n++) xs.push(rng.int(-1e15, 1e15));
  for (let n = 0; n < 500; n++) xs.push(Math.round(rng.float() * 2 ** rng.int(53, 75)));
  // Around the fixed/exponent boundaries: 1e21 and 1e-7 (and 1e-6).
  for (const c of [1e21, 1e-7, 1e-6, 1e20, 1e22, 1e16, 1e17]) {
    xs.push(...nearby(c, 60), ...nearby(-c, 5));
  }
  for (let e = -330; e <= 310; e++) {
    const p = Number(`1e${e}`);
    if (p !== 0 && Number.isFinite(p)) xs.push(p, 1.5 * p, 9.999 * p);
  }
  // Subnormals, zeros, extremes.
  for (let n = 0; n < 1000; n++) xs.push(fromBits(rng.next64() & 0x800fffffffffffffn));
  xs.push(0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE,
    2.2250738585072014e-308, Number.EPSILON, 0.1, 0.2, 0.1 + 0.2, 1 / 3, 100, 1e21, 5e-324);
  for (let e = -1074; e <= 1023; e += 3) xs.push(2 ** e);
  return xs.filter((x) => Number.isFinite(x));
}

function intToStringInputs() {
  const rng = new Rng(0x696e74n); // "int"
  const is = [];
  const two53 = 2n ** 53n;
  for (let d = -200n; d <= 200n; d++) is.push(two53 + d, -(two53 + d));
  for (let n = 0; n < 2000; n++) {
    const bits = rng.int(54, 1023); // bit length of the integer
    const chunks = Math.ceil(bits / 64);
    let v = 0n;
    for (let i = 0; i < chunks; i++) v = (v << 64n) | rng.next64();
    v = (v >> BigInt(64 * chunks - bits)) | (1n << BigInt(bits - 1));
    is.push(n % 2 ? v : -v);
  }
  for (let n = 0; n < 500; n++) is.push(BigInt(rng.int(-1e15, 1e15)));
  is.push(0n, 10n ** 21n, 10n ** 21n - 1n, 10n ** 22n, 2n ** 1023n, 2n ** 1024n - 2n ** 970n - 1n);
  return is;
}

// ---------------------------------------------------------------- main

const header = ["generated by generate_vectors.mjs (Node/V8); see that script"];

writeVectors("log.txt.gz", [...header, "x_bits Math.log(x)_bits"],
  logInputs().map((x) => `${hex(x)} ${hex(Math.log(x))}`));
writeVectors("exp.txt.gz", [...header, "x_bits Math.exp(x)_bits"],
  expInputs().map((x) => `${hex(x)} ${hex(Math.exp(x))}`));
writeVectors("to_fixed.txt.gz", [...header, "x_bits digits x.toFixed(digits)"], toFixedCases());
writeVectors("number_to_string.txt.gz", [...header, "x_bits JSON.stringify(x)"],
  numberToStringInputs().map((x) => `${hex(x)} ${JSON.stringify(x)}`));
writeVectors("int_to_string.txt.gz", [...header, "integer JSON.stringify(Number(BigInt(integer)))"],
  intToStringInputs().map((i) => `${i} ${JSON.stringify(Number(i))}`));
