"""Node-link drawings for the report, as inline SVG: a layered layout computed here (no
Graphviz, no JavaScript), so that two versions of one graph (truth and prediction) can be drawn
with every shared node in the same place.

The layout is a small Sugiyama-style one: cycles broken by reversing the edges a depth-first
search finds going back, layers by longest path from the sources, the order inside a layer by a
few sweeps of the barycentre heuristic. Good enough for the few dozen nodes of a diagram; the
caller shows a table instead beyond :data:`MAX_DRAWN` nodes.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass

from parsescore.report.html import e

__all__ = [
    "MAX_DRAWN",
    "DrawEdge",
    "DrawNode",
    "canvas",
    "layered_layout",
    "svg_graph",
    "text_width",
]

#: Above this many nodes a drawing is unreadable; callers show a table.
MAX_DRAWN = 200

_W, _H, _GAP_X, _GAP_Y = 150, 40, 24, 46
_EDITED = "#b35900"  # the colour of ✎, the mark of an edited text


@dataclass(frozen=True)
class DrawNode:
    """A box: its id, its text, fill and stroke colours, a dashed border, a mark (✎)."""

    id: Hashable
    text: str
    fill: str = "#e8f0fe"
    stroke: str = "#4a6fa5"
    dashed: bool = False
    mark: bool = False
    title: str = ""


@dataclass(frozen=True)
class DrawEdge:
    """An arrow between two node ids, with its label; ``mark``: the label was edited (drawn
    with ✎ in the colour of an edited node's mark), ``title``: the arrow's tooltip."""

    source: Hashable
    target: Hashable
    colour: str = "#555"
    dashed: bool = False
    label: str = ""
    mark: bool = False
    title: str = ""


def _acyclic(
    nodes: Sequence[Hashable], edges: Sequence[tuple[Hashable, Hashable]]
) -> list[tuple[Hashable, Hashable]]:
    """The edges with those closing a cycle reversed (self-loops dropped)."""
    out_edges: dict[Hashable, list[Hashable]] = {n: [] for n in nodes}
    for a, b in edges:
        if a != b:
            out_edges[a].append(b)
    state: dict[Hashable, int] = {}
    back: set[tuple[Hashable, Hashable]] = set()
    for root in nodes:
        if root in state:
            continue
        stack = [(root, iter(out_edges[root]))]
        state[root] = 1
        while stack:
            node, children = stack[-1]
            child = next(children, None)
            if child is None:
                state[node] = 2
                stack.pop()
            elif state.get(child) == 1:
                back.add((node, child))
            elif child not in state:
                state[child] = 1
                stack.append((child, iter(out_edges[child])))
    return [(b, a) if (a, b) in back else (a, b) for a, b in edges if a != b]


def layered_layout(
    nodes: Sequence[Hashable], edges: Sequence[tuple[Hashable, Hashable]], *, wrap: int = 6
) -> dict[Hashable, tuple[float, float]]:
    """The centre ``(x, y)`` of every node, at most ``wrap`` boxes side by side (a page is
    narrower than it is long); deterministic for the same input order.

    >>> layered_layout(["a", "b", "c"], [("a", "b"), ("a", "c")])["a"][1] < 100
    True
    """
    nodes = list(dict.fromkeys(nodes))
    known = set(nodes)
    dag = _acyclic(nodes, [(a, b) for a, b in edges if a in known and b in known])
    preds: dict[Hashable, list[Hashable]] = {n: [] for n in nodes}
    succs: dict[Hashable, list[Hashable]] = {n: [] for n in nodes}
    for a, b in dag:
        preds[b].append(a)
        succs[a].append(b)
    layer: dict[Hashable, int] = {}
    indegree = {n: len(preds[n]) for n in nodes}
    queue = [n for n in nodes if indegree[n] == 0]
    for n in queue:
        layer[n] = 0
    k = 0
    while k < len(queue):
        node = queue[k]
        k += 1
        for child in succs[node]:
            layer[child] = max(layer.get(child, 0), layer[node] + 1)
            indegree[child] -= 1
            if indegree[child] == 0:
                queue.append(child)
    layers: dict[int, list[Hashable]] = {}
    for n in nodes:
        layers.setdefault(layer.get(n, 0), []).append(n)
    depth = max(layers) + 1 if layers else 0
    rows = [layers.get(d, []) for d in range(depth)]
    position = {n: float(i) for row in rows for i, n in enumerate(row)}
    for sweep in range(4):
        ordered = range(1, depth) if sweep % 2 == 0 else range(depth - 2, -1, -1)
        for d in ordered:
            neighbours = preds if sweep % 2 == 0 else succs
            row = rows[d]

            centre = {
                n: (
                    sum(position[m] for m in neighbours[n]) / len(neighbours[n])
                    if neighbours[n]
                    else position[n]
                )
                for n in row
            }
            row.sort(key=centre.__getitem__)
            for i, n in enumerate(row):
                position[n] = float(i)
    # a layer wider than ``wrap`` nodes continues on the next visual row
    shown = [row[k : k + wrap] for row in rows for k in range(0, max(len(row), 1), wrap)]
    widest = max((len(row) for row in shown), default=0)
    out: dict[Hashable, tuple[float, float]] = {}
    for d, row in enumerate(shown):
        offset = (widest - len(row)) * (_W + _GAP_X) / 2
        for i, n in enumerate(row):
            x = offset + i * (_W + _GAP_X) + _W / 2 + _GAP_X / 2
            out[n] = (x, d * (_H + _GAP_Y) + _H / 2 + 10)
    return out


_NARROW = frozenset("iljtfrI.,:;'!|() ")
_WIDE = frozenset("MWmw@%")


def text_width(text: str) -> float:
    """The width of ``text`` in the drawings' 11 px font, estimated per character (narrow
    letters, capitals and wide letters apart), a little over rather than under."""
    width = 0.0
    for char in text:
        if char in _NARROW:
            width += 3.6
        elif char in _WIDE or (char.isupper() and char not in _NARROW):
            width += 8.4 if char in _WIDE else 7.6
        else:
            width += 6.4
    return width


def _lines(text: str, room: float = _W - 12) -> list[str]:
    """A box's text in at most two lines of ``room`` pixels, broken between words (a word
    longer than a line is broken where the line is full); what does not fit ends in ``…``."""
    words = text.split()
    lines: list[str] = []
    current = ""
    for word in words:
        candidate = f"{current} {word}" if current else word
        if text_width(candidate) <= room:
            current = candidate
            continue
        if current:
            lines.append(current)
        while text_width(word) > room:  # one word longer than a line
            cut = len(word)
            while cut > 1 and text_width(word[:cut]) > room:
                cut -= 1
            lines.append(word[:cut])
            word = word[cut:]
        current = word
    if current or not lines:
        lines.append(current)
    if len(lines) <= 2:
        return lines
    last = lines[1]
    while last and text_width(last + "…") > room:
        last = last[:-1].rstrip()
    return [lines[0], last + "…"]


def _clip(x1: float, y1: float, x2: float, y2: float) -> tuple[float, float]:
    """Where the segment from box centre 1 to box centre 2 leaves box 2."""
    dx, dy = x1 - x2, y1 - y2
    if dx == 0 and dy == 0:
        return x2, y2
    scale = min(
        (_W / 2) / abs(dx) if dx else float("inf"), (_H / 2) / abs(dy) if dy else float("inf")
    )
    return x2 + dx * scale, y2 + dy * scale


def svg_graph(
    nodes: Sequence[DrawNode],
    edges: Sequence[DrawEdge],
    layout: Mapping[Hashable, tuple[float, float]],
    *,
    label: str,
    size: tuple[float, float] | None = None,
) -> str:
    """An ``<svg class="drawing">`` of the nodes at their layout places and the arrows between
    them; ``size`` fixes the canvas (both drawings of a pair share it)."""
    if size is None:
        size = canvas(layout)
    width, height = size
    colours = sorted({edge.colour for edge in edges})
    marker_id = {c: f"arrow-{k}" for k, c in enumerate(colours)}
    out = [
        f'<svg class="drawing flow" role="img" aria-label="{e(label)}" '
        f'viewBox="0 0 {width:.0f} {height:.0f}" width="{width:.0f}" height="{height:.0f}">',
        "<defs>",
    ]
    out += [
        f'<marker id="{marker_id[c]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" '
        f'fill="{c}"/></marker>'
        for c in colours
    ]
    out.append("</defs>")
    labels: list[tuple[DrawEdge, float, float]] = []  # drawn over the boxes, last
    placed = {node.id: layout[node.id] for node in nodes if node.id in layout}
    for edge in edges:
        if edge.source not in layout or edge.target not in layout:
            continue
        (x1, y1), (x2, y2) = layout[edge.source], layout[edge.target]
        dash = ' stroke-dasharray="5 3"' if edge.dashed else ""
        if edge.source == edge.target:
            out.append(
                f'<path d="M{x1 + _W / 2:.1f},{y1 - 6:.1f} c24,-18 24,30 0,12" fill="none" '
                f'stroke="{edge.colour}" stroke-width="1.6"{dash} '
                f'marker-end="url(#{marker_id[edge.colour]})"/>'
            )
            continue
        tip = edge.title or edge.label
        title = f"<title>{e(tip)}</title>" if tip else ""
        others = [place for key, place in placed.items() if key not in (edge.source, edge.target)]
        control = _route((x1, y1), (x2, y2), others, width)
        if control is None:  # between neighbouring rows, clear of every other box: straight
            sx, sy = _clip(x2, y2, x1, y1)
            tx, ty = _clip(x1, y1, x2, y2)
            out.append(
                f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{tx:.1f}" y2="{ty:.1f}" '
                f'stroke="{edge.colour}" stroke-width="1.6"{dash} '
                f'marker-end="url(#{marker_id[edge.colour]})">{title}</line>'
            )
            if edge.label or edge.mark:
                labels.append((edge, (sx + tx) / 2, (sy + ty) / 2))
            continue
        # otherwise a curve bowing out to a side where it passes behind no other box
        cx, cy = control
        sx, sy = _clip(cx, cy, x1, y1)
        tx, ty = _clip(cx, cy, x2, y2)
        out.append(
            f'<path d="M{sx:.1f},{sy:.1f} Q{cx:.1f},{cy:.1f} {tx:.1f},{ty:.1f}" fill="none" '
            f'stroke="{edge.colour}" stroke-width="1.6"{dash} '
            f'marker-end="url(#{marker_id[edge.colour]})">{title}</path>'
        )
        if edge.label or edge.mark:  # the curve's middle (t = 1/2)
            labels.append((edge, (sx + 2 * cx + tx) / 4, (sy + 2 * cy + ty) / 4))
    for node in nodes:
        if node.id not in layout:
            continue
        x, y = layout[node.id]
        dash = ' stroke-dasharray="4 3"' if node.dashed else ""
        title = f"<title>{e(node.title or node.text)}</title>"
        out.append(
            f'<g>{title}<rect x="{x - _W / 2:.1f}" y="{y - _H / 2:.1f}" width="{_W}" '
            f'height="{_H}" rx="5" fill="{node.fill}" stroke="{node.stroke}" '
            f'stroke-width="{2.2 if node.mark or node.dashed else 1.2}"{dash}/>'
        )
        lines = _lines(node.text)
        for k, line in enumerate(lines):
            dy = (k - (len(lines) - 1) / 2) * 13 + 4
            # a line the estimate got wrong is squeezed into the box rather than spill out
            fit = (
                f' textLength="{_W - 12}" lengthAdjust="spacingAndGlyphs"'
                if text_width(line) > _W - 12
                else ""
            )
            out.append(
                f'<text x="{x:.1f}" y="{y + dy:.1f}" text-anchor="middle"{fit}>{e(line)}</text>'
            )
        if node.mark:
            out.append(
                f'<text x="{x + _W / 2 - 9:.1f}" y="{y - _H / 2 + 11:.1f}" '
                f'text-anchor="middle" fill="{_EDITED}">✎</text>'
            )
        out.append("</g>")
    for edge, lx, ly in labels:  # on a white halo, so that a line under it does not cross it
        text = f"{edge.label} ✎".strip() if edge.mark else edge.label
        out.append(
            f'<text class="edge-label{" edited" if edge.mark else ""}" x="{lx:.1f}" '
            f'y="{ly + 3:.1f}" text-anchor="middle" '
            f'fill="{_EDITED if edge.mark else edge.colour}" stroke="#fff" stroke-width="3" '
            f'paint-order="stroke" font-size="10">{e(text)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


Point = tuple[float, float]


def _crosses(start: Point, control: Point, end: Point, boxes: Sequence[Point]) -> bool:
    """Whether the quadratic curve from ``start`` to ``end`` (a line when ``control`` is the
    middle) passes behind one of the boxes centred at ``boxes`` (its ends, inside their own
    boxes, are not looked at)."""
    margin = 4.0
    for k in range(1, 40):
        t = k / 40
        x = (1 - t) ** 2 * start[0] + 2 * (1 - t) * t * control[0] + t**2 * end[0]
        y = (1 - t) ** 2 * start[1] + 2 * (1 - t) * t * control[1] + t**2 * end[1]
        for bx, by in boxes:
            if abs(x - bx) <= _W / 2 + margin and abs(y - by) <= _H / 2 + margin:
                return True
    return False


def _route(start: Point, end: Point, boxes: Sequence[Point], width: float) -> Point | None:
    """Where an edge bends: None for a straight line (between neighbouring rows, when it
    passes behind no other box), else the control point of a curve bowing right or left as
    far as needed to pass behind no other box (the first that does, within the canvas)."""
    (x1, y1), (x2, y2) = start, end
    middle = ((x1 + x2) / 2, (y1 + y2) / 2)
    step = _H + _GAP_Y
    if abs(y2 - y1) <= step * 1.2 and y1 != y2 and not _crosses(start, middle, end, boxes):
        return None
    bow = _W * 0.75 + 0.15 * abs(y2 - y1)
    lift = 30 if y1 == y2 else 0
    first: Point | None = None
    for scale in (1.0, 1.6, 2.3, 3.0):
        for side in (1, -1):
            control = (middle[0] + side * bow * scale, middle[1] - lift * scale)
            if first is None:
                first = control
            extreme = (x1 + 2 * control[0] + x2) / 4  # the curve's middle
            if not 4 <= extreme <= width - 4:
                continue
            if not _crosses(start, control, end, boxes):
                return control
    assert first is not None
    return first


def canvas(layout: Mapping[Hashable, tuple[float, float]]) -> tuple[float, float]:
    """The width and height a layout needs."""
    if not layout:
        return _W + _GAP_X, _H + 20
    width = max(x for x, _ in layout.values()) + _W / 2 + _GAP_X / 2 + 60
    height = max(y for _, y in layout.values()) + _H / 2 + 10
    return width, height
