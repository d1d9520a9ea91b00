// mtcompute_ref.mjs -- INDEPENDENT reference implementation, for differential testing.
//
// This file implements nine tool contracts directly from their specification documents:
//   bleu-smoothing-compute@1.0.0, bleu-sentence-components@1.0.0, chrf-compute@1.0.0,
//   chrf-plus-plus-compute@1.0.0, chrf-components@1.0.0 (these two from the rules),
//   bleu-sentence-compute@1.0.0, bleu-corpus-compute@1.0.0, bleu-ngrams-count@1.0.0 and
//   bleu-brevity-penalty@1.0.0 (from their contract documents)
// (the seed contracts, the contract JSON files, and the decisions in docs/decisions.md).
// It was written without looking at the Python implementation in src/mtcompute, so that the
// two can be compared input by input (tests/test_reference_agreement.py). It is not shipped.
//
// Usage:  node tests/reference/mtcompute_ref.mjs < requests.jsonl > responses.jsonl
//   Each input line:  {"id": tool_id, "version": "1.0.0", "input": <any JSON>}
//   Each output line: the envelope {"result": {...}} or {"error": {"code", "message", "path"}},
//                     written with JSON.stringify (compact, keys in output-schema order).
// The program never throws: an unexpected exception becomes an envelope with the code
// "internal_error" (a code no contract uses), so that a comparison fails loudly.

import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

// ---------------------------------------------------------------------------------------
// JSON parsing that remembers the order of an object's keys as written in the input.
// JSON.parse moves integer-like keys ("1", "22") to the front, but the contracts say
// "unknown keys (first in input order)", so we keep our own key order per object.
// Strings and numbers are converted by JSON.parse itself, so their values are exactly the
// ones JSON.parse gives (including lone surrogates from \ud800 escapes and 1e400 -> Infinity).
// ---------------------------------------------------------------------------------------

const keyOrder = new WeakMap();
// true, false, null or a JSON number, matched exactly at lastIndex (sticky).
const LITERAL = /true|false|null|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

function parseJsonKeepingKeyOrder(text) {
  let i = 0;

  function fail(what) {
    throw new SyntaxError(`bad JSON at offset ${i}: ${what}`);
  }
  function skipWhitespace() {
    while (i < text.length && " \t\n\r".includes(text[i])) i++;
  }
  function parseString() {
    const start = i;
    i++; // opening quote
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\\") i++;
      i++;
    }
    if (i >= text.length) fail("unterminated string");
    i++; // closing quote
    return JSON.parse(text.slice(start, i));
  }
  function parseValue() {
    skipWhitespace();
    const ch = text[i];
    if (ch === "{") {
      i++;
      const obj = {};
      const order = [];
      skipWhitespace();
      if (text[i] === "}") {
        i++;
      } else {
        for (;;) {
          skipWhitespace();
          if (text[i] !== '"') fail("expected a key");
          const key = parseString();
          skipWhitespace();
          if (text[i] !== ":") fail("expected ':'");
          i++;
          const value = parseValue();
          if (!Object.hasOwn(obj, key)) order.push(key);
          // defineProperty, not assignment: a key "__proto__" must become an own property.
          Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
          skipWhitespace();
          if (text[i] === ",") { i++; continue; }
          if (text[i] === "}") { i++; break; }
          fail("expected ',' or '}'");
        }
      }
      keyOrder.set(obj, order);
      return obj;
    }
    if (ch === "[") {
      i++;
      const arr = [];
      skipWhitespace();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue());
        skipWhitespace();
        if (text[i] === ",") { i++; continue; }
        if (text[i] === "]") { i++; break; }
        fail("expected ',' or ']'");
      }
      return arr;
    }
    if (ch === '"') return parseString();
    LITERAL.lastIndex = i;
    const m = LITERAL.exec(text);
    if (!m) fail("unexpected character");
    i += m[0].length;
    return JSON.parse(m[0]);
  }

  const value = parseValue();
  skipWhitespace();
  if (i !== text.length) fail("trailing characters");
  return value;
}

function keysInInputOrder(obj) {
  return keyOrder.get(obj) ?? Object.keys(obj);
}

// ---------------------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------------------

// An error the tool reports to its caller (as opposed to a bug in this file).
class ToolError {
  constructor(code, message, path) {
    this.code = code;
    this.message = message;
    this.path = path;
  }
}

function invalid(path, message) {
  return new ToolError("invalid_input", message, path);
}
function tooLarge(path, message) {
  return new ToolError("limit_exceeded", message, path);
}

// RFC 6901: "~" -> "~0", "/" -> "~1".
function pointer(...parts) {
  return parts.map((p) => "/" + String(p).replaceAll("~", "~0").replaceAll("/", "~1")).join("");
}

function isPlainObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
function isFiniteNumber(v) {
  return typeof v === "number" && Number.isFinite(v);
}
function isInteger(v) {
  return typeof v === "number" && Number.isInteger(v); // false for NaN and +-Infinity
}
function describe(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "string") return `the string ${JSON.stringify(v.length > 40 ? v.slice(0, 40) + "..." : v)}`;
  if (typeof v === "number") return `the number ${v}`;
  if (typeof v === "boolean") return `the boolean ${v}`;
  return "an object";
}

// Whole-input checks every tool shares: plain object, unknown keys, missing keys.
function checkObjectShape(input, allowedKeys, requiredKeys) {
  if (!isPlainObject(input)) {
    throw invalid("", `The input must be a JSON object, but it is ${describe(input)}.`);
  }
  for (const key of keysInInputOrder(input)) {
    if (!allowedKeys.includes(key)) {
      throw invalid(pointer(key), `Unknown input key ${JSON.stringify(key)}; allowed keys are ${allowedKeys.join(", ")}.`);
    }
  }
  for (const key of requiredKeys) {
    if (!Object.hasOwn(input, key)) {
      throw invalid(pointer(key), `The required input key ${JSON.stringify(key)} is missing.`);
    }
  }
}

function hasLoneSurrogate(s) {
  for (let k = 0; k < s.length; k++) {
    const u = s.charCodeAt(k);
    if (u >= 0xd800 && u <= 0xdbff) {
      const next = k + 1 < s.length ? s.charCodeAt(k + 1) : -1;
      if (next >= 0xdc00 && next <= 0xdfff) {
        k++; // a proper pair
        continue;
      }
      return true;
    }
    if (u >= 0xdc00 && u <= 0xdfff) return true;
  }
  return false;
}

const encoder = new TextEncoder();
// UTF-8 byte length as TextEncoder counts it (a lone surrogate becomes U+FFFD, 3 bytes).
function utf8Length(s) {
  return encoder.encode(s).length;
}

// ---------------------------------------------------------------------------------------
// bleu-smoothing-compute@1.0.0
// ---------------------------------------------------------------------------------------

const MAX_ORDERS = 8;
const MAX_COUNT = 1e12;

function checkCount(value, path, name) {
  if (!isInteger(value)) throw invalid(path, `${name} must be an integer, but it is ${describe(value)}.`);
  if (value < 0) throw invalid(path, `${name} must be at least 0, but it is ${value}.`);
  if (value > MAX_COUNT) throw tooLarge(path, `${name} must be at most 10^12 (max count value), but it is ${value}.`);
}

function checkCountArray(value, key) {
  const path = pointer(key);
  if (!Array.isArray(value)) throw invalid(path, `${key} must be an array of integers, but it is ${describe(value)}.`);
  if (value.length > MAX_ORDERS) {
    throw tooLarge(path, `${key} has ${value.length} orders; at most 8 are allowed (max orders).`);
  }
  if (value.length < 1) throw invalid(path, `${key} must have at least one order, but it is empty.`);
  value.forEach((item, idx) => checkCount(item, pointer(key, idx), `${key}[${idx}]`));
}

function bleuSmoothingCompute(input) {
  const allowed = ["matches", "totals", "candidate_length", "reference_length", "smoothing",
    "epsilon", "effective_order", "decimals"];
  const required = ["matches", "totals", "candidate_length", "reference_length", "smoothing"];
  checkObjectShape(input, allowed, required);

  const { matches, totals } = input;
  checkCountArray(matches, "matches");
  checkCountArray(totals, "totals");
  checkCount(input.candidate_length, "/candidate_length", "candidate_length");
  checkCount(input.reference_length, "/reference_length", "reference_length");

  const smoothing = input.smoothing;
  if (typeof smoothing !== "string") {
    throw invalid("/smoothing", `smoothing must be one of "none", "method1", "method2", "method3", but it is ${describe(smoothing)}.`);
  }
  if (["method4", "method5", "method6", "method7"].includes(smoothing)) {
    throw new ToolError("unsupported_input",
      `Chen and Cherry smoothing ${smoothing} is not supported by this tool; use "none", "method1", "method2" or "method3".`,
      "/smoothing");
  }
  if (!["none", "method1", "method2", "method3"].includes(smoothing)) {
    throw invalid("/smoothing", `smoothing must be one of "none", "method1", "method2", "method3", but it is ${describe(smoothing)}.`);
  }

  const hasEpsilon = Object.hasOwn(input, "epsilon");
  if (hasEpsilon) {
    const e = input.epsilon;
    if (!isFiniteNumber(e)) throw invalid("/epsilon", `epsilon must be a number, but it is ${describe(e)}.`);
    if (e < 0 || e > 1) throw invalid("/epsilon", `epsilon must be between 0 and 1, but it is ${e}.`);
  }
  if (Object.hasOwn(input, "effective_order") && typeof input.effective_order !== "boolean") {
    throw invalid("/effective_order", `effective_order must be a boolean, but it is ${describe(input.effective_order)}.`);
  }
  const hasDecimals = Object.hasOwn(input, "decimals");
  if (hasDecimals) {
    const d = input.decimals;
    if (!isInteger(d)) throw invalid("/decimals", `decimals must be an integer, but it is ${describe(d)}.`);
    if (d < 0 || d > 15) throw invalid("/decimals", `decimals must be between 0 and 15, but it is ${d}.`);
  }

  // Cross-field rules.
  const N = matches.length;
  if (totals.length !== N) {
    throw invalid("/totals", `totals has ${totals.length} orders but matches has ${N}; they must have the same length.`);
  }
  for (let n = 0; n < N; n++) {
    if (matches[n] > totals[n]) {
      throw invalid(pointer("matches", n), `matches[${n}] = ${matches[n]} is larger than totals[${n}] = ${totals[n]}.`);
    }
  }
  if (matches[0] === 0) {
    for (let n = 1; n < N; n++) {
      if (matches[n] > 0) {
        throw invalid(pointer("matches", n), `matches[${n}] = ${matches[n]} must be 0 because matches[0] is 0.`);
      }
    }
  }
  if (hasEpsilon && smoothing !== "method1") {
    throw invalid("/epsilon", `epsilon is only accepted with smoothing "method1", not with ${JSON.stringify(smoothing)}.`);
  }

  // Smoothed counts.
  const epsilon = hasEpsilon ? input.epsilon : 0.1;
  const sm = [];
  const st = [];
  let zeroOrdersSeen = 0; // for method3
  for (let n = 0; n < N; n++) {
    let m = matches[n];
    let l = totals[n];
    if (smoothing === "method1") {
      if (m === 0) m = epsilon;
    } else if (smoothing === "method2") {
      if (n >= 1) { m = m + 1; l = l + 1; }
    } else if (smoothing === "method3") {
      if (m === 0) {
        zeroOrdersSeen += 1;
        m = 1 / 2 ** zeroOrdersSeen;
      }
    }
    sm.push(m);
    st.push(l);
  }

  let ordersUsed = N;
  if (input.effective_order === true) {
    ordersUsed = 0;
    while (ordersUsed < N && st[ordersUsed] > 0) ordersUsed++;
  }

  const c = input.candidate_length;
  const r = input.reference_length;
  let bp;
  if (c === 0) bp = 0;
  else if (c > r) bp = 1;
  else bp = Math.exp(1 - r / c);

  let bleu;
  let usedOrderIsZero = false;
  for (let n = 0; n < ordersUsed; n++) {
    if (st[n] === 0 || sm[n] === 0) usedOrderIsZero = true;
  }
  if (c === 0 || matches[0] === 0 || ordersUsed === 0 || usedOrderIsZero) {
    bleu = 0;
  } else {
    let s = 0;
    for (let n = 0; n < ordersUsed; n++) s += Math.log(sm[n] / st[n]);
    bleu = bp * Math.exp(s / ordersUsed);
  }

  if (hasDecimals) {
    bleu = Number(bleu.toFixed(input.decimals));
    bp = Number(bp.toFixed(input.decimals));
  }

  return {
    bleu,
    brevity_penalty: bp,
    orders_used: ordersUsed,
    smoothed_matches: sm,
    smoothed_totals: st,
  };
}

// ---------------------------------------------------------------------------------------
// bleu-sentence-components@1.0.0
// ---------------------------------------------------------------------------------------

const MAX_REFERENCES = 8;
const MAX_TOTAL_TOKENS = 10000;
const MAX_TOKEN_BYTES = 128;
const MAX_TOTAL_TOKEN_BYTES = 262144;
const MAX_OUTPUT_BYTES = 1000000;

// Checks one token list; returns the UTF-8 byte total of its tokens.
function checkTokens(tokens, pathParts) {
  let bytes = 0;
  tokens.forEach((tok, idx) => {
    const path = pointer(...pathParts, idx);
    if (typeof tok !== "string") throw invalid(path, `Each token must be a string, but token ${path} is ${describe(tok)}.`);
    if (tok.length === 0) throw invalid(path, `Tokens must be non-empty, but token ${path} is the empty string.`);
    if (hasLoneSurrogate(tok)) throw invalid(path, `Token ${path} contains a lone surrogate, which is not valid Unicode text.`);
    const b = utf8Length(tok);
    if (b > MAX_TOKEN_BYTES) throw tooLarge(path, `Token ${path} has ${b} UTF-8 bytes; at most 128 are allowed (max token bytes).`);
    bytes += b;
  });
  return bytes;
}

// n-gram counts of one token list, in first-occurrence order (Map keeps insertion order).
function countNgrams(tokens, n) {
  const counts = new Map();
  for (let k = 0; k + n <= tokens.length; k++) {
    const gram = tokens.slice(k, k + n);
    const key = JSON.stringify(gram); // unambiguous key for a token sequence
    const entry = counts.get(key);
    if (entry) entry.count += 1;
    else counts.set(key, { gram, count: 1 });
  }
  return counts;
}

// Closest reference length to c, ties to the shorter one (first of equals kept).
function closestLength(c, lengths) {
  let r = null;
  for (const len of lengths) {
    if (r === null) { r = len; continue; }
    const dNew = Math.abs(len - c);
    const dOld = Math.abs(r - c);
    if (dNew < dOld || (dNew === dOld && len < r)) r = len;
  }
  return r;
}

// The statistics of one (already validated) segment, as bleu-sentence-components defines them:
// candidate length c, closest reference length r, clipped matches and totals per order, and
// (when asked) the per-n-gram clipping table.
function sentenceStats(hyp, refs, maxOrder, includeNgrams) {
  const c = hyp.length;
  const r = closestLength(c, refs.map((ref) => ref.length));
  const matches = [];
  const totals = [];
  const ngrams = [];
  for (let n = 1; n <= maxOrder; n++) {
    const hypCounts = countNgrams(hyp, n);
    const maxRef = new Map();
    for (const ref of refs) {
      for (const [key, { count }] of countNgrams(ref, n)) {
        if (hypCounts.has(key) && count > (maxRef.get(key) ?? 0)) maxRef.set(key, count);
      }
    }
    let matched = 0;
    for (const [key, { gram, count }] of hypCounts) {
      const m = maxRef.get(key) ?? 0;
      const clipped = Math.min(count, m);
      matched += clipped;
      if (includeNgrams) {
        ngrams.push({ order: n, ngram: gram, count, max_reference_count: m, clipped_count: clipped });
      }
    }
    matches.push(matched);
    totals.push(Math.max(0, c - n + 1));
  }
  return { c, r, matches, totals, ngrams };
}

function bleuSentenceComponents(input) {
  checkObjectShape(input, ["hypothesis", "references", "max_order", "include_ngrams"], ["hypothesis", "references"]);

  const hyp = input.hypothesis;
  if (!Array.isArray(hyp)) throw invalid("/hypothesis", `hypothesis must be an array of tokens, but it is ${describe(hyp)}.`);
  let totalBytes = checkTokens(hyp, ["hypothesis"]);
  let totalTokens = hyp.length;

  const refs = input.references;
  if (!Array.isArray(refs)) throw invalid("/references", `references must be an array of token arrays, but it is ${describe(refs)}.`);
  if (refs.length > MAX_REFERENCES) throw tooLarge("/references", `There are ${refs.length} references; at most 8 are allowed (max references).`);
  if (refs.length < 1) throw invalid("/references", "references must hold at least one reference, but it is empty.");
  refs.forEach((ref, j) => {
    if (!Array.isArray(ref)) throw invalid(pointer("references", j), `Reference ${j} must be an array of tokens, but it is ${describe(ref)}.`);
    totalBytes += checkTokens(ref, ["references", j]);
    totalTokens += ref.length;
  });

  let maxOrder = 4;
  if (Object.hasOwn(input, "max_order")) {
    const mo = input.max_order;
    if (!isInteger(mo) || mo < 1 || mo > 8) throw invalid("/max_order", `max_order must be an integer from 1 to 8, but it is ${describe(mo)}.`);
    maxOrder = mo;
  }
  let includeNgrams = false;
  if (Object.hasOwn(input, "include_ngrams")) {
    if (typeof input.include_ngrams !== "boolean") {
      throw invalid("/include_ngrams", `include_ngrams must be a boolean, but it is ${describe(input.include_ngrams)}.`);
    }
    includeNgrams = input.include_ngrams;
  }
  if (totalTokens > MAX_TOTAL_TOKENS) {
    throw tooLarge("", `The hypothesis and references hold ${totalTokens} tokens together; at most 10000 are allowed (max total tokens).`);
  }
  if (totalBytes > MAX_TOTAL_TOKEN_BYTES) {
    throw tooLarge("", `The tokens total ${totalBytes} UTF-8 bytes; at most 262144 are allowed (max total token bytes).`);
  }

  const { c, r, matches, totals, ngrams } = sentenceStats(hyp, refs, maxOrder, includeNgrams);
  const result = { candidate_length: c, reference_length: r, max_order: maxOrder, matches, totals };
  if (includeNgrams) result.ngrams = ngrams;

  const outBytes = utf8Length(JSON.stringify(result));
  if (outBytes > MAX_OUTPUT_BYTES) {
    throw tooLarge("", `The result would be ${outBytes} UTF-8 bytes of JSON; at most 1000000 are allowed (max output bytes).`);
  }
  return result;
}

// ---------------------------------------------------------------------------------------
// chrf-compute@1.0.0  (exact rational arithmetic with BigInt)
// ---------------------------------------------------------------------------------------

const MAX_SEGMENTS = 256;
const MAX_TEXT_BYTES = 65536;
const CHAR_ORDER = 6;

// The Python 3 str.split() whitespace set named by the contract.
const WHITESPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

// --- small exact-fraction toolkit: {n: BigInt, d: BigInt}, d > 0, always reduced ---
function gcd(a, b) {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
function frac(n, d = 1n) {
  if (d === 0n) throw new Error("fraction with zero denominator");
  if (d < 0n) { n = -n; d = -d; }
  const g = gcd(n, d);
  return g === 0n ? { n: 0n, d: 1n } : { n: n / g, d: d / g };
}
const fAdd = (x, y) => frac(x.n * y.d + y.n * x.d, x.d * y.d);
const fMul = (x, y) => frac(x.n * y.n, x.d * y.d);
const fDiv = (x, y) => frac(x.n * y.d, x.d * y.n);
const ZERO = frac(0n);

// Round a non-negative fraction to 6 decimals, ties to even; "dd.dddddd".
function formatScore(x) {
  const scaled = x.n * 1000000n;
  let q = scaled / x.d;
  const rem = scaled - q * x.d;
  const twice = 2n * rem;
  if (twice > x.d || (twice === x.d && q % 2n === 1n)) q += 1n;
  const intPart = q / 1000000n;
  const fracPart = (q % 1000000n).toString().padStart(6, "0");
  return `${intPart}.${fracPart}`;
}

// Per-order statistics of one segment: hyp[n], ref[n], match[n] for n = 1..order (index n-1;
// order 6 for chrf-compute).
function segmentStats(hypText, refText, lowercase, order = CHAR_ORDER) {
  const prep = (t) => {
    const s = lowercase ? t.toLowerCase() : t;
    const cps = [];
    for (const ch of s) if (!WHITESPACE.has(ch.codePointAt(0))) cps.push(ch);
    return cps;
  };
  const h = prep(hypText);
  const r = prep(refText);
  const stats = [];
  for (let n = 1; n <= order; n++) {
    const count = (cps) => {
      const m = new Map();
      for (let k = 0; k + n <= cps.length; k++) {
        const g = cps.slice(k, k + n).join("");
        m.set(g, (m.get(g) ?? 0) + 1);
      }
      return m;
    };
    const hc = count(h);
    const rc = count(r);
    let match = 0;
    for (const [g, rcount] of rc) match += Math.min(rcount, hc.get(g) ?? 0);
    stats.push({ hyp: Math.max(0, h.length - n + 1), ref: Math.max(0, r.length - n + 1), match });
  }
  return stats;
}

// chrF on the 0..100 scale as an exact fraction, from per-order counts.
function chrfFromStats(stats, beta) {
  let sumP = ZERO;
  let sumR = ZERO;
  let effective = 0n;
  for (const { hyp, ref, match } of stats) {
    if (hyp > 0 && ref > 0) {
      sumP = fAdd(sumP, frac(BigInt(match), BigInt(hyp)));
      sumR = fAdd(sumR, frac(BigInt(match), BigInt(ref)));
      effective += 1n;
    }
  }
  if (effective === 0n) return ZERO;
  const P = fDiv(sumP, frac(effective));
  const R = fDiv(sumR, frac(effective));
  if (P.n === 0n && R.n === 0n) return ZERO;
  const b2 = frac(BigInt(beta) * BigInt(beta));
  const numerator = fMul(fMul(fAdd(frac(1n), b2), P), R);
  const denominator = fAdd(fMul(b2, P), R);
  return fMul(frac(100n), fDiv(numerator, denominator));
}

function checkSegmentArray(value, key) {
  const path = pointer(key);
  if (!Array.isArray(value)) throw invalid(path, `${key} must be an array of strings, but it is ${describe(value)}.`);
  if (value.length > MAX_SEGMENTS) throw tooLarge(path, `${key} has ${value.length} segments; at most 256 are allowed (max segments).`);
  if (value.length < 1) throw invalid(path, `${key} must hold at least one segment, but it is empty.`);
  value.forEach((item, idx) => {
    if (typeof item !== "string") throw invalid(pointer(key, idx), `Each segment must be a string, but ${key}[${idx}] is ${describe(item)}.`);
  });
}

function chrfCompute(input) {
  checkObjectShape(input, ["hypotheses", "references", "beta", "lowercase"], ["hypotheses", "references"]);
  const hyps = input.hypotheses;
  const refs = input.references;
  checkSegmentArray(hyps, "hypotheses");
  checkSegmentArray(refs, "references");
  if (hyps.length !== refs.length) {
    throw invalid("/references", `There are ${hyps.length} hypotheses but ${refs.length} references; the counts must be equal.`);
  }
  let bytes = 0;
  for (const t of hyps) bytes += utf8Length(t);
  for (const t of refs) bytes += utf8Length(t);
  if (bytes > MAX_TEXT_BYTES) {
    throw tooLarge("", `The texts total ${bytes} UTF-8 bytes; at most 65536 are allowed (max text bytes).`);
  }
  hyps.forEach((t, idx) => {
    if (hasLoneSurrogate(t)) throw invalid(pointer("hypotheses", idx), `hypotheses[${idx}] contains a lone surrogate, which is not valid Unicode text.`);
  });
  refs.forEach((t, idx) => {
    if (hasLoneSurrogate(t)) throw invalid(pointer("references", idx), `references[${idx}] contains a lone surrogate, which is not valid Unicode text.`);
  });
  let beta = 2;
  if (Object.hasOwn(input, "beta")) {
    const b = input.beta;
    if (!isInteger(b) || b < 1 || b > 16) throw invalid("/beta", `beta must be an integer from 1 to 16, but it is ${describe(b)}.`);
    beta = b;
  }
  let lowercase = false;
  if (Object.hasOwn(input, "lowercase")) {
    if (typeof input.lowercase !== "boolean") throw invalid("/lowercase", `lowercase must be a boolean, but it is ${describe(input.lowercase)}.`);
    lowercase = input.lowercase;
  }

  const corpus = Array.from({ length: CHAR_ORDER }, () => ({ hyp: 0, ref: 0, match: 0 }));
  const segmentScores = [];
  for (let s = 0; s < hyps.length; s++) {
    const stats = segmentStats(hyps[s], refs[s], lowercase);
    stats.forEach((st, k) => {
      corpus[k].hyp += st.hyp;
      corpus[k].ref += st.ref;
      corpus[k].match += st.match;
    });
    segmentScores.push(formatScore(chrfFromStats(stats, beta)));
  }
  const score = chrfFromStats(corpus, beta);

  return {
    metric: "chrF",
    char_order: 6,
    word_order: 0,
    beta,
    lowercase,
    segment_count: hyps.length,
    score: formatScore(score),
    score_fraction: `${score.n}/${score.d}`,
    segment_scores: segmentScores,
  };
}

// ---------------------------------------------------------------------------------------
// chrf-plus-plus-compute@1.0.0 and chrf-components@1.0.0 (word n-grams, configurable orders)
// Written from the issue's rules and the two contracts' semantics, not from the Python code.
// ---------------------------------------------------------------------------------------

// The 32 ASCII punctuation characters of the chrF++ word rule.
const PUNCTUATION = new Set("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~");
const EPSILON = frac(1n, 10n ** 16n);

// Words of a text: split on runs of the 29 whitespace code points; a word of two or more code
// points ending in punctuation splits off that last character; otherwise one starting with
// punctuation splits off that first character; one split per word at most.
function splitWords(text) {
  const pieces = [];
  let current = [];
  for (const ch of text) {
    if (WHITESPACE.has(ch.codePointAt(0))) {
      if (current.length) pieces.push(current);
      current = [];
    } else {
      current.push(ch);
    }
  }
  if (current.length) pieces.push(current);
  const words = [];
  for (const w of pieces) {
    const last = w[w.length - 1];
    if (w.length >= 2 && PUNCTUATION.has(last)) {
      words.push(w.slice(0, -1).join(""), last);
    } else if (w.length >= 2 && PUNCTUATION.has(w[0])) {
      words.push(w[0], w.slice(1).join(""));
    } else {
      words.push(w.join(""));
    }
  }
  return words;
}

// Word n-gram statistics of one segment for n = 1..order: {hyp, ref, match} per order.
function wordStats(hypText, refText, lowercase, order) {
  const h = splitWords(lowercase ? hypText.toLowerCase() : hypText);
  const r = splitWords(lowercase ? refText.toLowerCase() : refText);
  const stats = [];
  for (let n = 1; n <= order; n++) {
    const count = (words) => {
      const m = new Map();
      for (let k = 0; k + n <= words.length; k++) {
        const key = JSON.stringify(words.slice(k, k + n));
        m.set(key, (m.get(key) ?? 0) + 1);
      }
      return m;
    };
    const hc = count(h);
    const rc = count(r);
    let match = 0;
    for (const [g, rcount] of rc) match += Math.min(rcount, hc.get(g) ?? 0);
    stats.push({ hyp: Math.max(0, h.length - n + 1), ref: Math.max(0, r.length - n + 1), match });
  }
  return stats;
}

const fmtFrac = (x) => `${x.n}/${x.d}`;
const isZero = (x) => x.n === 0n;

// F_beta of one precision and recall (callers handle a zero denominator).
function fBeta(p, r, beta) {
  const b2 = frac(BigInt(beta) * BigInt(beta));
  return fDiv(fMul(fMul(fAdd(frac(1n), b2), p), r), fAdd(fMul(b2, p), r));
}

// Per-order precision/recall/F, their averages and the score (0..100) from summed stats.
function scoreOrders(stats, beta, averaging) {
  const orders = [];
  if (averaging === "per_order_f") {
    let sumP = ZERO;
    let sumR = ZERO;
    let sumF = ZERO;
    for (const { hyp, ref, match } of stats) {
      const p = hyp > 0 ? frac(BigInt(match), BigInt(hyp)) : EPSILON;
      const r = ref > 0 ? frac(BigInt(match), BigInt(ref)) : EPSILON;
      const f = isZero(p) && isZero(r) ? EPSILON : fBeta(p, r, beta);
      orders.push({ p, r, f });
      sumP = fAdd(sumP, p);
      sumR = fAdd(sumR, r);
      sumF = fAdd(sumF, f);
    }
    const k = frac(BigInt(stats.length));
    return {
      orders,
      precision: fDiv(sumP, k),
      recall: fDiv(sumR, k),
      score: fMul(frac(100n), fDiv(sumF, k)),
    };
  }
  let sumP = ZERO;
  let sumR = ZERO;
  let k = 0n;
  for (const { hyp, ref, match } of stats) {
    if (hyp > 0 && ref > 0) {
      const p = frac(BigInt(match), BigInt(hyp));
      const r = frac(BigInt(match), BigInt(ref));
      orders.push({ p, r, f: isZero(p) && isZero(r) ? ZERO : fBeta(p, r, beta) });
      sumP = fAdd(sumP, p);
      sumR = fAdd(sumR, r);
      k += 1n;
    } else {
      orders.push({ p: null, r: null, f: null });
    }
  }
  if (k === 0n) return { orders, precision: null, recall: null, score: ZERO };
  const P = fDiv(sumP, frac(k));
  const R = fDiv(sumR, frac(k));
  const score = isZero(P) && isZero(R) ? ZERO : fMul(frac(100n), fBeta(P, R, beta));
  return { orders, precision: P, recall: R, score };
}

// chrf-compute's validation steps, in its order, for a tool with extra keys after them.
function checkChrfInput(input, allowed) {
  checkObjectShape(input, allowed, ["hypotheses", "references"]);
  const hyps = input.hypotheses;
  const refs = input.references;
  checkSegmentArray(hyps, "hypotheses");
  checkSegmentArray(refs, "references");
  if (hyps.length !== refs.length) {
    throw invalid("/references", `There are ${hyps.length} hypotheses but ${refs.length} references; the counts must be equal.`);
  }
  let bytes = 0;
  for (const t of hyps) bytes += utf8Length(t);
  for (const t of refs) bytes += utf8Length(t);
  if (bytes > MAX_TEXT_BYTES) {
    throw tooLarge("", `The texts total ${bytes} UTF-8 bytes; at most 65536 are allowed (max text bytes).`);
  }
  hyps.forEach((t, idx) => {
    if (hasLoneSurrogate(t)) throw invalid(pointer("hypotheses", idx), `hypotheses[${idx}] contains a lone surrogate.`);
  });
  refs.forEach((t, idx) => {
    if (hasLoneSurrogate(t)) throw invalid(pointer("references", idx), `references[${idx}] contains a lone surrogate.`);
  });
  let beta = 2;
  if (Object.hasOwn(input, "beta")) {
    const b = input.beta;
    if (!isInteger(b) || b < 1 || b > 16) throw invalid("/beta", `beta must be an integer from 1 to 16, but it is ${describe(b)}.`);
    beta = b;
  }
  let lowercase = false;
  if (Object.hasOwn(input, "lowercase")) {
    if (typeof input.lowercase !== "boolean") throw invalid("/lowercase", `lowercase must be a boolean, but it is ${describe(input.lowercase)}.`);
    lowercase = input.lowercase;
  }
  return { hyps, refs, beta, lowercase };
}

// Every order's {hyp, ref, match} of one segment: character orders, then word orders.
function allStats(hyp, ref, lowercase, charOrder, wordOrder, zeroing) {
  const stats = segmentStats(hyp, ref, lowercase, charOrder);
  if (wordOrder > 0) stats.push(...wordStats(hyp, ref, lowercase, wordOrder));
  if (zeroing) for (const st of stats) if (st.ref === 0) st.hyp = 0;
  return stats;
}

// Corpus sums and per-segment scores.
function scoreSegments(hyps, refs, lowercase, charOrder, wordOrder, beta, averaging, zeroing) {
  const corpus = Array.from({ length: charOrder + wordOrder }, () => ({ hyp: 0, ref: 0, match: 0 }));
  const segmentScores = [];
  for (let s = 0; s < hyps.length; s++) {
    const stats = allStats(hyps[s], refs[s], lowercase, charOrder, wordOrder, zeroing);
    stats.forEach((st, k) => {
      corpus[k].hyp += st.hyp;
      corpus[k].ref += st.ref;
      corpus[k].match += st.match;
    });
    segmentScores.push(formatScore(scoreOrders(stats, beta, averaging).score));
  }
  return { corpus, scored: scoreOrders(corpus, beta, averaging), segmentScores };
}

function chrfPlusPlusCompute(input) {
  const { hyps, refs, beta, lowercase } = checkChrfInput(input, ["hypotheses", "references", "beta", "lowercase"]);
  const { scored, segmentScores } = scoreSegments(hyps, refs, lowercase, 6, 2, beta, "effective_order", false);
  return {
    metric: "chrF++",
    char_order: 6,
    word_order: 2,
    beta,
    lowercase,
    segment_count: hyps.length,
    score: formatScore(scored.score),
    score_fraction: fmtFrac(scored.score),
    segment_scores: segmentScores,
  };
}

function chrfComponents(input) {
  const keys = ["hypotheses", "references", "beta", "lowercase", "char_order", "word_order", "averaging", "sacrebleu_compatible"];
  const { hyps, refs, beta, lowercase } = checkChrfInput(input, keys);
  let charOrder = 6;
  if (Object.hasOwn(input, "char_order")) {
    const v = input.char_order;
    if (!isInteger(v) || v < 1 || v > 10) throw invalid("/char_order", `char_order must be an integer from 1 to 10, but it is ${describe(v)}.`);
    charOrder = v;
  }
  let wordOrder = 0;
  if (Object.hasOwn(input, "word_order")) {
    const v = input.word_order;
    if (!isInteger(v) || v < 0 || v > 4) throw invalid("/word_order", `word_order must be an integer from 0 to 4, but it is ${describe(v)}.`);
    wordOrder = v;
  }
  let averaging = "effective_order";
  if (Object.hasOwn(input, "averaging")) {
    const v = input.averaging;
    if (v !== "effective_order" && v !== "per_order_f") throw invalid("/averaging", `averaging must be "effective_order" or "per_order_f", but it is ${describe(v)}.`);
    averaging = v;
  }
  let zeroing = false;
  if (Object.hasOwn(input, "sacrebleu_compatible")) {
    const v = input.sacrebleu_compatible;
    if (typeof v !== "boolean") throw invalid("/sacrebleu_compatible", `sacrebleu_compatible must be a boolean, but it is ${describe(v)}.`);
    zeroing = v;
  }
  const { corpus, scored, segmentScores } = scoreSegments(hyps, refs, lowercase, charOrder, wordOrder, beta, averaging, zeroing);
  const orders = corpus.map((st, k) => {
    const o = scored.orders[k];
    const isChar = k < charOrder;
    return {
      kind: isChar ? "char" : "word",
      n: isChar ? k + 1 : k - charOrder + 1,
      hypothesis_ngrams: st.hyp,
      reference_ngrams: st.ref,
      matches: st.match,
      effective: st.hyp > 0 && st.ref > 0,
      precision: o.p === null ? null : fmtFrac(o.p),
      recall: o.r === null ? null : fmtFrac(o.r),
      f: o.f === null ? null : fmtFrac(o.f),
    };
  });
  return {
    char_order: charOrder,
    word_order: wordOrder,
    beta,
    lowercase,
    averaging,
    sacrebleu_compatible: zeroing,
    segment_count: hyps.length,
    orders,
    precision: scored.precision === null ? null : fmtFrac(scored.precision),
    recall: scored.recall === null ? null : fmtFrac(scored.recall),
    score: formatScore(scored.score),
    score_fraction: fmtFrac(scored.score),
    segment_scores: segmentScores,
  };
}

// ---------------------------------------------------------------------------------------
// bleu-sentence-compute, bleu-corpus-compute, bleu-ngrams-count, bleu-brevity-penalty @1.0.0
// Written from their contract documents (semantics, validation order, limits, schemas,
// examples) and docs/decisions.md, not from the Python code. They compose the
// functions above: sentenceStats (bleu-sentence-components) and bleuSmoothingCompute.
// ---------------------------------------------------------------------------------------

const SMOOTHINGS = ["none", "method1", "method2", "method3"];
const UNSUPPORTED_SMOOTHINGS = ["method4", "method5", "method6", "method7"];
const CORPUS_MAX_SEGMENTS = 4096;
const CORPUS_MAX_TOTAL_TOKENS = 500000;
const CORPUS_MAX_TOTAL_TOKEN_BYTES = 4194304;
const BP_MAX_SEGMENTS = 100000;
const BP_MAX_LENGTH = 1e9;

// max_order (integer, 1-8); omitted means 4.
function readMaxOrder(input) {
  if (!Object.hasOwn(input, "max_order")) return 4;
  const mo = input.max_order;
  if (!isInteger(mo) || mo < 1 || mo > 8) throw invalid("/max_order", `max_order must be an integer from 1 to 8, but it is ${describe(mo)}.`);
  return mo;
}

// smoothing (method4-7 unsupported, then one of the four); epsilon (number, 0-1);
// effective_order (boolean); decimals (integer, 0-15) -- in that order.
function readScoreOptions(input) {
  let smoothing = "none";
  if (Object.hasOwn(input, "smoothing")) {
    const s = input.smoothing;
    if (typeof s === "string" && UNSUPPORTED_SMOOTHINGS.includes(s)) {
      throw new ToolError("unsupported_input",
        `Chen and Cherry smoothing ${s} is not supported; use "none", "method1", "method2" or "method3".`,
        "/smoothing");
    }
    if (typeof s !== "string" || !SMOOTHINGS.includes(s)) {
      throw invalid("/smoothing", `smoothing must be one of "none", "method1", "method2", "method3", but it is ${describe(s)}.`);
    }
    smoothing = s;
  }
  const hasEpsilon = Object.hasOwn(input, "epsilon");
  if (hasEpsilon) {
    const e = input.epsilon;
    if (!isFiniteNumber(e)) throw invalid("/epsilon", `epsilon must be a number, but it is ${describe(e)}.`);
    if (e < 0 || e > 1) throw invalid("/epsilon", `epsilon must be between 0 and 1, but it is ${e}.`);
  }
  if (Object.hasOwn(input, "effective_order") && typeof input.effective_order !== "boolean") {
    throw invalid("/effective_order", `effective_order must be a boolean, but it is ${describe(input.effective_order)}.`);
  }
  if (Object.hasOwn(input, "decimals")) {
    const d = input.decimals;
    if (!isInteger(d)) throw invalid("/decimals", `decimals must be an integer, but it is ${describe(d)}.`);
    if (d < 0 || d > 15) throw invalid("/decimals", `decimals must be between 0 and 15, but it is ${d}.`);
  }
  return { smoothing, hasEpsilon };
}

function checkEpsilonOnlyWithMethod1(input, smoothing, hasEpsilon) {
  if (hasEpsilon && smoothing !== "method1") {
    throw invalid("/epsilon", `epsilon is only accepted with smoothing "method1", not with ${JSON.stringify(smoothing)}.`);
  }
}

// bleu-smoothing-compute@1.0.0 on the statistics, with the caller's options passed through.
function smoothStats(input, smoothing, c, r, matches, totals) {
  const req = { matches, totals, candidate_length: c, reference_length: r, smoothing };
  for (const key of ["epsilon", "effective_order", "decimals"]) {
    if (Object.hasOwn(input, key)) req[key] = input[key];
  }
  return bleuSmoothingCompute(req);
}

function bleuSentenceCompute(input) {
  const allowed = ["hypothesis", "references", "max_order", "smoothing", "epsilon", "effective_order", "decimals"];
  checkObjectShape(input, allowed, ["hypothesis", "references", "smoothing"]);

  const hyp = input.hypothesis;
  if (!Array.isArray(hyp)) throw invalid("/hypothesis", `hypothesis must be an array of tokens, but it is ${describe(hyp)}.`);
  let totalBytes = checkTokens(hyp, ["hypothesis"]);
  let totalTokens = hyp.length;
  const refs = input.references;
  if (!Array.isArray(refs)) throw invalid("/references", `references must be an array of token arrays, but it is ${describe(refs)}.`);
  if (refs.length > MAX_REFERENCES) throw tooLarge("/references", `There are ${refs.length} references; at most 8 are allowed (max references).`);
  if (refs.length < 1) throw invalid("/references", "references must hold at least one reference, but it is empty.");
  refs.forEach((ref, j) => {
    if (!Array.isArray(ref)) throw invalid(pointer("references", j), `Reference ${j} must be an array of tokens, but it is ${describe(ref)}.`);
    totalBytes += checkTokens(ref, ["references", j]);
    totalTokens += ref.length;
  });
  const maxOrder = readMaxOrder(input);
  const { smoothing, hasEpsilon } = readScoreOptions(input);
  if (totalTokens > MAX_TOTAL_TOKENS) {
    throw tooLarge("", `The hypothesis and references hold ${totalTokens} tokens together; at most 10000 are allowed (max total tokens).`);
  }
  if (totalBytes > MAX_TOTAL_TOKEN_BYTES) {
    throw tooLarge("", `The tokens total ${totalBytes} UTF-8 bytes; at most 262144 are allowed (max total token bytes).`);
  }
  checkEpsilonOnlyWithMethod1(input, smoothing, hasEpsilon);

  const { c, r, matches, totals } = sentenceStats(hyp, refs, maxOrder, false);
  const sm = smoothStats(input, smoothing, c, r, matches, totals);
  return {
    bleu: sm.bleu,
    brevity_penalty: sm.brevity_penalty,
    orders_used: sm.orders_used,
    candidate_length: c,
    reference_length: r,
    matches,
    totals,
    smoothed_matches: sm.smoothed_matches,
    smoothed_totals: sm.smoothed_totals,
  };
}

// The corpus tools' shared validation up to (and including) the equal segment counts.
// Returns the token and byte totals.
function checkCorpusSegments(input) {
  const hyps = input.hypotheses;
  if (!Array.isArray(hyps)) throw invalid("/hypotheses", `hypotheses must be an array of token arrays, but it is ${describe(hyps)}.`);
  if (hyps.length > CORPUS_MAX_SEGMENTS) throw tooLarge("/hypotheses", `There are ${hyps.length} hypotheses; at most 4096 segments are allowed (max segments).`);
  if (hyps.length < 1) throw invalid("/hypotheses", "hypotheses must hold at least one segment, but it is empty.");
  let tokens = 0;
  let bytes = 0;
  hyps.forEach((h, i) => {
    if (!Array.isArray(h)) throw invalid(pointer("hypotheses", i), `Hypothesis ${i} must be an array of tokens, but it is ${describe(h)}.`);
    bytes += checkTokens(h, ["hypotheses", i]);
    tokens += h.length;
  });
  const refs = input.references;
  if (!Array.isArray(refs)) throw invalid("/references", `references must be an array of segments, but it is ${describe(refs)}.`);
  if (refs.length > CORPUS_MAX_SEGMENTS) throw tooLarge("/references", `There are ${refs.length} reference segments; at most 4096 are allowed (max segments).`);
  if (refs.length < 1) throw invalid("/references", "references must hold at least one segment, but it is empty.");
  refs.forEach((seg, i) => {
    const p = pointer("references", i);
    if (!Array.isArray(seg)) throw invalid(p, `references[${i}] must be an array of references, but it is ${describe(seg)}.`);
    if (seg.length > MAX_REFERENCES) throw tooLarge(p, `Segment ${i} has ${seg.length} references; at most 8 are allowed (max references).`);
    if (seg.length < 1) throw invalid(p, `Segment ${i} must have at least one reference, but it has none.`);
    seg.forEach((ref, j) => {
      if (!Array.isArray(ref)) throw invalid(pointer("references", i, j), `references[${i}][${j}] must be an array of tokens, but it is ${describe(ref)}.`);
      bytes += checkTokens(ref, ["references", i, j]);
      tokens += ref.length;
    });
  });
  if (hyps.length !== refs.length) {
    throw invalid("/references", `There are ${hyps.length} hypotheses but ${refs.length} reference segments; the counts must be equal.`);
  }
  return { tokens, bytes };
}

function checkCorpusTotals(tokens, bytes) {
  if (tokens > CORPUS_MAX_TOTAL_TOKENS) {
    throw tooLarge("", `The hypotheses and references hold ${tokens} tokens together; at most 500000 are allowed (max total tokens).`);
  }
  if (bytes > CORPUS_MAX_TOTAL_TOKEN_BYTES) {
    throw tooLarge("", `The tokens total ${bytes} UTF-8 bytes; at most 4194304 are allowed (max total token bytes).`);
  }
}

// Per-segment statistics and their exact sums.
function corpusStats(hyps, refs, maxOrder, includeNgrams) {
  const segments = [];
  let c = 0;
  let r = 0;
  const matches = new Array(maxOrder).fill(0);
  const totals = new Array(maxOrder).fill(0);
  for (let i = 0; i < hyps.length; i++) {
    const st = sentenceStats(hyps[i], refs[i], maxOrder, includeNgrams);
    c += st.c;
    r += st.r;
    for (let n = 0; n < maxOrder; n++) {
      matches[n] += st.matches[n];
      totals[n] += st.totals[n];
    }
    const seg = { candidate_length: st.c, reference_length: st.r, matches: st.matches, totals: st.totals };
    if (includeNgrams) seg.ngrams = st.ngrams;
    segments.push(seg);
  }
  return { c, r, matches, totals, segments };
}

function bleuCorpusCompute(input) {
  const allowed = ["hypotheses", "references", "max_order", "smoothing", "epsilon", "effective_order", "decimals"];
  checkObjectShape(input, allowed, ["hypotheses", "references"]);
  const { tokens, bytes } = checkCorpusSegments(input);
  const maxOrder = readMaxOrder(input);
  const { smoothing, hasEpsilon } = readScoreOptions(input);
  checkCorpusTotals(tokens, bytes);
  checkEpsilonOnlyWithMethod1(input, smoothing, hasEpsilon);

  const { c, r, matches, totals } = corpusStats(input.hypotheses, input.references, maxOrder, false);
  const sm = smoothStats(input, smoothing, c, r, matches, totals);
  return {
    bleu: sm.bleu,
    brevity_penalty: sm.brevity_penalty,
    orders_used: sm.orders_used,
    segment_count: input.hypotheses.length,
    candidate_length: c,
    reference_length: r,
    matches,
    totals,
    smoothed_matches: sm.smoothed_matches,
    smoothed_totals: sm.smoothed_totals,
  };
}

function bleuNgramsCount(input) {
  checkObjectShape(input, ["hypotheses", "references", "max_order", "include_ngrams"], ["hypotheses", "references"]);
  const { tokens, bytes } = checkCorpusSegments(input);
  const maxOrder = readMaxOrder(input);
  let includeNgrams = false;
  if (Object.hasOwn(input, "include_ngrams")) {
    if (typeof input.include_ngrams !== "boolean") {
      throw invalid("/include_ngrams", `include_ngrams must be a boolean, but it is ${describe(input.include_ngrams)}.`);
    }
    includeNgrams = input.include_ngrams;
  }
  checkCorpusTotals(tokens, bytes);

  const st = corpusStats(input.hypotheses, input.references, maxOrder, includeNgrams);
  const result = {
    segment_count: input.hypotheses.length,
    max_order: maxOrder,
    candidate_length: st.c,
    reference_length: st.r,
    matches: st.matches,
    totals: st.totals,
    segments: st.segments,
  };
  const size = utf8Length(JSON.stringify(result));
  if (size > MAX_OUTPUT_BYTES) {
    // The first segment at which the result up to and including it passes the limit:
    // the head (everything but the segments' contents) plus segments 0..i with commas.
    const head = utf8Length(JSON.stringify({ ...result, segments: [] }));
    let running = head;
    let first = st.segments.length - 1;
    for (let i = 0; i < st.segments.length; i++) {
      running += utf8Length(JSON.stringify(st.segments[i])) + (i > 0 ? 1 : 0);
      if (running > MAX_OUTPUT_BYTES) { first = i; break; }
    }
    throw tooLarge("", `The result would be ${size} UTF-8 bytes of JSON; at most 1000000 are allowed (max output bytes), passed at segment ${first}.`);
  }
  return result;
}

function checkLength(value, path, name) {
  if (!isInteger(value)) throw invalid(path, `${name} must be an integer, but it is ${describe(value)}.`);
  if (value < 0) throw invalid(path, `${name} must be at least 0, but it is ${value}.`);
  if (value > BP_MAX_LENGTH) throw tooLarge(path, `${name} must be at most 10^9 (max length value), but it is ${value}.`);
}

function bleuBrevityPenalty(input) {
  checkObjectShape(input, ["candidate_lengths", "reference_lengths", "decimals"], ["candidate_lengths", "reference_lengths"]);
  const cands = input.candidate_lengths;
  if (!Array.isArray(cands)) throw invalid("/candidate_lengths", `candidate_lengths must be an array of integers, but it is ${describe(cands)}.`);
  if (cands.length > BP_MAX_SEGMENTS) throw tooLarge("/candidate_lengths", `There are ${cands.length} segments; at most 100000 are allowed (max segments).`);
  if (cands.length < 1) throw invalid("/candidate_lengths", "candidate_lengths must hold at least one segment, but it is empty.");
  cands.forEach((v, i) => checkLength(v, pointer("candidate_lengths", i), `candidate_lengths[${i}]`));
  const refs = input.reference_lengths;
  if (!Array.isArray(refs)) throw invalid("/reference_lengths", `reference_lengths must be an array of arrays, but it is ${describe(refs)}.`);
  if (refs.length > BP_MAX_SEGMENTS) throw tooLarge("/reference_lengths", `There are ${refs.length} segments; at most 100000 are allowed (max segments).`);
  if (refs.length < 1) throw invalid("/reference_lengths", "reference_lengths must hold at least one segment, but it is empty.");
  refs.forEach((seg, i) => {
    const p = pointer("reference_lengths", i);
    if (!Array.isArray(seg)) throw invalid(p, `reference_lengths[${i}] must be an array of integers, but it is ${describe(seg)}.`);
    if (seg.length > MAX_REFERENCES) throw tooLarge(p, `Segment ${i} has ${seg.length} references; at most 8 are allowed (max references).`);
    if (seg.length < 1) throw invalid(p, `Segment ${i} must have at least one reference length, but it has none.`);
    seg.forEach((v, j) => checkLength(v, pointer("reference_lengths", i, j), `reference_lengths[${i}][${j}]`));
  });
  if (cands.length !== refs.length) {
    throw invalid("/reference_lengths", `There are ${cands.length} candidate lengths but ${refs.length} reference segments; the counts must be equal.`);
  }
  const hasDecimals = Object.hasOwn(input, "decimals");
  if (hasDecimals) {
    const d = input.decimals;
    if (!isInteger(d)) throw invalid("/decimals", `decimals must be an integer, but it is ${describe(d)}.`);
    if (d < 0 || d > 15) throw invalid("/decimals", `decimals must be between 0 and 15, but it is ${d}.`);
  }

  let c = 0;
  let r = 0;
  const closest = [];
  for (let i = 0; i < cands.length; i++) {
    const ci = cands[i];
    const ri = closestLength(ci, refs[i]);
    closest.push(ri);
    c += ci; // exact: at most 10^14 < 2^53
    r += ri;
  }
  let bp;
  if (c === 0) bp = 0;
  else if (c > r) bp = 1;
  else bp = Math.exp(1 - r / c);
  let ratio = r === 0 ? null : c / r;
  if (hasDecimals) {
    bp = Number(bp.toFixed(input.decimals));
    if (ratio !== null) ratio = Number(ratio.toFixed(input.decimals));
  }
  return {
    candidate_length: c,
    reference_length: r,
    closest_reference_lengths: closest,
    brevity_penalty: bp,
    ratio,
  };
}

// ---------------------------------------------------------------------------------------
// Dispatch and the JSON Lines driver
// ---------------------------------------------------------------------------------------

const TOOLS = {
  "bleu-smoothing-compute": { "1.0.0": bleuSmoothingCompute },
  "bleu-sentence-components": { "1.0.0": bleuSentenceComponents },
  "chrf-compute": { "1.0.0": chrfCompute },
  "chrf-plus-plus-compute": { "1.0.0": chrfPlusPlusCompute },
  "chrf-components": { "1.0.0": chrfComponents },
  "bleu-sentence-compute": { "1.0.0": bleuSentenceCompute },
  "bleu-corpus-compute": { "1.0.0": bleuCorpusCompute },
  "bleu-ngrams-count": { "1.0.0": bleuNgramsCount },
  "bleu-brevity-penalty": { "1.0.0": bleuBrevityPenalty },
};

export function execute(id, version, input) {
  const versions = typeof id === "string" && Object.hasOwn(TOOLS, id) ? TOOLS[id] : null;
  if (!versions) {
    return { error: { code: "not_found", message: `There is no tool with id ${JSON.stringify(id)}.`, path: "" } };
  }
  if (typeof version !== "string" || !Object.hasOwn(versions, version)) {
    return { error: { code: "not_found", message: `Tool ${id} has no version ${JSON.stringify(version)}; available: ${Object.keys(versions).join(", ")}.`, path: "" } };
  }
  try {
    return { result: versions[version](input) };
  } catch (e) {
    if (e instanceof ToolError) return { error: { code: e.code, message: e.message, path: e.path } };
    throw e;
  }
}

function handleLine(line) {
  try {
    const request = parseJsonKeepingKeyOrder(line);
    return JSON.stringify(execute(request.id, request.version, request.input));
  } catch (e) {
    // A bug here or a malformed request line: fail loudly, never silently.
    return JSON.stringify({ error: { code: "internal_error", message: String(e && e.stack ? e.stack : e), path: "" } });
  }
}

function main() {
  const text = readFileSync(0, "utf8");
  const out = [];
  for (const line of text.split("\n")) {
    if (line.trim() === "") continue;
    out.push(handleLine(line));
  }
  process.stdout.write(out.length ? out.join("\n") + "\n" : "");
}

// Run the driver only when executed directly (the vector generator imports execute()).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main();
}
