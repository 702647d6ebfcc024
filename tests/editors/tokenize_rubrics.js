// Tokenizes .rubric files with the editors' TextMate grammar, as VS Code would, and checks that
// every non-blank character gets a scope of its own, nothing is marked invalid, and the
// language's parts (keywords, strings, interpolation, units, comments) get their scopes.
// usage: node tokenize_rubrics.js NODE_MODULES GRAMMAR FILE...
'use strict';
const fs = require('fs');
const path = require('path');

const [nodeModules, grammarPath, ...files] = process.argv.slice(2);
const vsctm = require(path.join(nodeModules, 'vscode-textmate'));
const oniguruma = require(path.join(nodeModules, 'vscode-oniguruma'));

async function loadGrammar() {
  const wasm = fs.readFileSync(path.join(nodeModules, 'vscode-oniguruma', 'release', 'onig.wasm'));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === 'source.rubric'
        ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath)
        : null,
  });
  return registry.loadGrammar('source.rubric');
}

// [{text, scopes}] for every token of every line.
function tokenize(grammar, text) {
  let stack = vsctm.INITIAL;
  const out = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) {
      out.push({ line: i + 1, col: t.startIndex + 1, text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes });
    }
    stack = r.ruleStack;
  });
  return out;
}

const problems = [];

function checkCoverage(grammar, name, text) {
  for (const t of tokenize(grammar, text)) {
    const where = `${name}:${t.line}:${t.col}`;
    if (t.scopes.length === 1 && t.text.trim() !== '') problems.push(`${where}: no scope for ${JSON.stringify(t.text)}`);
    if (t.scopes.some((s) => s.startsWith('invalid'))) problems.push(`${where}: invalid ${JSON.stringify(t.text)}`);
  }
}

// The innermost scope of the first token whose text is `text` (after `skip` earlier ones).
function scopeOf(grammar, snippet, text, skip = 0) {
  const hits = tokenize(grammar, snippet).filter((t) => t.text === text);
  return hits.length > skip ? hits[skip].scopes : null;
}

function expectScope(grammar, snippet, text, scope, skip = 0) {
  const scopes = scopeOf(grammar, snippet, text, skip);
  if (!scopes || !scopes.some((s) => s.startsWith(scope)))
    problems.push(`in ${JSON.stringify(snippet)}: ${JSON.stringify(text)} has ${JSON.stringify(scopes)}, wanted ${scope}`);
}

(async () => {
  const grammar = await loadGrammar();

  const cases = [
    ['criterion numerics "x" weight 3 required {', 'criterion', 'storage.type'],
    ['criterion numerics "x" weight 3 required {', 'numerics', 'entity.name.section'],
    ['criterion numerics "x" weight 3 required {', 'weight', 'storage.modifier'],
    ['criterion numerics "x" weight 3 required {', 'required', 'storage.modifier'],
    ['criterion b "y" after a needs gpu {', 'gpu', 'variable.other.reference'],
    ['use std.serving', 'std.serving', 'entity.name.namespace'],
    ['def speedup(a, b) = a / b', 'speedup', 'entity.name.function'],
    ['  expect cand >= 0.95 * base else "short"', 'expect', 'keyword.control'],
    ['  expect cand >= 0.95 * base else "short"', 'else', 'keyword.control'],
    ['  expect cand >= 0.95 * base else "short"', '>=', 'keyword.operator.comparison'],
    ['  expect cand >= 0.95 * base else "short"', '0.95', 'constant.numeric'],
    ['  expect answer mentions any ["LRU", "recency"]', 'mentions', 'keyword.operator.word'],
    ['  expect answer mentions any ["LRU", "recency"]', 'any', 'keyword.operator.word'],
    ['  expect any(xs, x => x > 1)', 'any', 'entity.name.function.call'],
    ['  expect any(xs, x => x > 1)', '=>', 'keyword.operator.arrow'],
    ['  expect answer affirms conflict and not (answer denies sinks)', 'affirms', 'keyword.operator.word'],
    ['  expect answer affirms conflict and not (answer denies sinks)', 'denies', 'keyword.operator.word'],
    ['param context = 32Ki', '32', 'constant.numeric'],
    ['param context = 32Ki', 'Ki', 'constant.numeric.suffix'],
    ['let t = 12 tok / s', 'tok / s', 'keyword.other.unit'],
    ['let t = 5ms', 'ms', 'keyword.other.unit'],
    ['let r = samples(xs) as tok/s', 'tok/s', 'keyword.other.unit'],
    ['let r = samples(xs) as tok/s', 'as', 'keyword.operator.word'],
    ['expect out matches ref to rtol 1e-3 atol 1e-5', 'rtol', 'keyword.operator.word'],
    ['expect out matches ref to rtol 1e-3 atol 1e-5', '1e-3', 'constant.numeric'],
    ['let p = submission / "bench_{context}.json"', 'submission', 'variable.language'],
    ['let p = submission / "bench_{context}.json"', 'context', 'meta.interpolation'],
    ['let p = submission / "bench_{context}.json"', '{', 'punctuation.section.interpolation.begin'],
    ['let p = "a\\n{{b}}"', '\\n', 'constant.character.escape'],
    ['let p = "a\\n{{b}}"', '{{', 'constant.character.escape'],
    ['let re = r"\\d+ms"', '\\d+ms', 'string.quoted.raw'],
    ['let re = r"\\d+ms"', 'r', 'storage.type.string'],
    ['# a comment with "quotes" and 5 ms', ' a comment with "quotes" and 5 ms', 'comment.line.number-sign'],
    ['## The context length.', ' The context length.', 'comment.line.documentation'],
    ['let ok = x.shape == y.shape', 'shape', 'variable.other.property'],
    ['let n = null', 'null', 'constant.language'],
  ];
  for (const [snippet, text, scope] of cases) expectScope(grammar, snippet, text, scope);

  // Interpolation holds expressions: a nested string and a call inside one.
  expectScope(grammar, 'note "got {fmt(x, "{y}")} now"', 'fmt', 'entity.name.function.call');
  // A string ends on its line: the next line is code again.
  expectScope(grammar, 'let s = "unclosed\nlet t = 1', 'let', 'storage.type', 1);

  for (const file of files) checkCoverage(grammar, file, fs.readFileSync(file, 'utf8'));

  if (problems.length) {
    console.error(problems.slice(0, 50).join('\n'));
    console.error(`${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log(`textmate grammar: ${cases.length + 2} scope checks, ${files.length} .rubric files fully scoped`);
})().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
