// Mermaid's own parse of many diagrams, for parsescore's reader tests.
// stdin: a JSON list of diagram texts. stdout: a JSON list, per text either {"error": msg} or
// {"type": Mermaid's diagram type, "db": the parts of its database the readers must agree with}.
// Mermaid needs a DOM even to parse, so jsdom's window supplies the browser globals.
import { JSDOM } from "jsdom";
const dom = new JSDOM("<!doctype html><html><body></body></html>", { pretendToBeVisual: true });
globalThis.window = dom.window;
globalThis.document = dom.window.document;
for (const k of Object.getOwnPropertyNames(dom.window)) {
  if (!(k in globalThis)) { try { globalThis[k] = dom.window[k]; } catch (e) {} }
}
const { default: mermaid } = await import("mermaid");
mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
let input = "";
for await (const chunk of process.stdin) input += chunk;
const texts = JSON.parse(input);
const out = [];
for (const text of texts) {
  try {
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    const db = diagram.db;
    const type = diagram.type;
    let dump = {};
    if (db.getVertices) {
      const v = db.getVertices();
      const verts = [...(v instanceof Map ? v.values() : Object.values(v))].map(x => ({ id: x.id, text: x.text, labelType: x.labelType, type: x.type ?? null }));
      dump = { vertices: verts, edges: db.getEdges().map(e => ({ start: e.start, end: e.end, type: e.type, stroke: e.stroke, text: e.text, length: e.length ?? null })),
               subgraphs: db.getSubGraphs().map(s => ({ id: s.id, title: s.title, nodes: s.nodes })), direction: db.getDirection ? db.getDirection() : null };
    } else if (db.getMessages) {
      const actors = db.getActors();
      const acts = [...(actors instanceof Map ? actors.values() : Object.values(actors))].map(a => ({ name: a.name, description: a.description, type: a.type, box: a.box ? a.box.name ?? null : null }));
      dump = { actors: acts, messages: db.getMessages().map(m => ({ from: m.from ?? null, to: m.to ?? null, message: m.message ?? null, type: m.type ?? null, activate: m.activate ?? null, placement: m.placement ?? null })),
               notes: (db.getNotes ? db.getNotes() : []).map(n => ({ actor: n.actor ?? null, from: n.from ?? null, to: n.to ?? null, placement: n.placement ?? null, message: n.message ?? null })),
               boxes: (db.getBoxes ? db.getBoxes() : []).map(b => ({ name: b.name ?? null, fill: b.fill ?? null, actorKeys: b.actorKeys ?? [] })),
               lineType: db.LINETYPE ?? null };
    }
    out.push({ type, db: dump });
  } catch (e) {
    out.push({ error: String(e && e.message ? e.message : e).split("\n").slice(0, 6).join("\n") });
  }
}
process.stdout.write(JSON.stringify(out));
