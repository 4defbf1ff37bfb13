// Mermaid's own parser over many texts, for parsescore.shared.mermaidjs (--check-syntax).
// Run as `node --input-type=module -e <this>` in a folder whose node_modules hold the npm
// packages mermaid and jsdom (bare imports resolve from the working folder).
// stdin: a JSON list of texts. stdout: {"version": mermaid's version, "results": [...]}, per
// text null (Mermaid parses it) or Mermaid's error message.
import { readFileSync } from "node:fs";
import { JSDOM } from "jsdom";

// Mermaid needs a DOM even to parse (its sanitiser): jsdom's window supplies the globals.
const dom = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true });
globalThis.window = dom.window;
globalThis.document = dom.window.document;
for (const key of Object.getOwnPropertyNames(dom.window)) {
  if (!(key in globalThis)) {
    try { globalThis[key] = dom.window[key]; } catch (e) { /* read-only global */ }
  }
}
const { default: mermaid } = await import("mermaid");
mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
const version = JSON.parse(readFileSync("node_modules/mermaid/package.json", "utf8")).version;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const text of JSON.parse(input)) {
  try {
    await mermaid.parse(text);
    results.push(null);
  } catch (e) {
    results.push(String(e && e.message ? e.message : e));
  }
}
process.stdout.write(JSON.stringify({ version, results }));
