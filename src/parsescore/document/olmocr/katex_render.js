// KaTeX in node for parsescore's olmOCR-bench math tests: one JSON string (a formula) or array of
// them per input line, one JSON object (or array of them) per output line: {"html": ...} (katex.renderToString, display mode,
// throwOnError, as olmOCR-bench renders) or {"error": message}. argv[2]: the folder whose
// node_modules holds katex.
"use strict";
const path = require("path");
const katex = require(path.join(process.argv[2], "node_modules", "katex"));
const readline = require("readline");
const lines = readline.createInterface({ input: process.stdin, terminal: false });
function render(formula) {
  try {
    const html = katex.renderToString(formula, { displayMode: true, throwOnError: true });
    return { html: html, version: katex.version };
  } catch (error) {
    return { error: String(error && error.message !== undefined ? error.message : error) };
  }
}
// a JSON array of formulas (a batch: one line in, one array out, so that neither pipe fills up
// while the other side waits) or one formula
lines.on("line", (line) => {
  const asked = JSON.parse(line);
  const out = Array.isArray(asked) ? asked.map(render) : render(asked);
  process.stdout.write(JSON.stringify(out) + "\n");
});
