// KaTeX in node for parsescore's olmOCR-bench math tests: one JSON string (a formula) per input
// line, one JSON object per output line: {"html": ...} (katex.renderToString, display mode,
// throwOnError, as olmOCR-bench renders) or {"error": message}. argv[2]: the folder whose
// node_modules holds katex.
"use strict";
const path = require("path");
const katex = require(path.join(process.argv[2], "node_modules", "katex"));
const readline = require("readline");
const lines = readline.createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  let out;
  try {
    const html = katex.renderToString(JSON.parse(line), { displayMode: true, throwOnError: true });
    out = { html: html, version: katex.version };
  } catch (error) {
    out = { error: String(error && error.message !== undefined ? error.message : error) };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
});
