"""Regular expressions of the PlantUML sequence-diagram grammar, one per statement.

Written from the grammar facts of plantuml.com/sequence-diagram and of the PlantUML command
classes (``sequencediagram/command/*.java``): participant codes are ``[letters digits _ . @]+``
or a quoted name, arrow dressings and bodies as PlantUML accepts them, keywords case-insensitive.
The parser in :mod:`parsescore.sequence.parser` tries them in a fixed order.
"""

from __future__ import annotations

import re

QUOTE = '["\u201c\u201d]'
NOT_QUOTE = '[^"\u201c\u201d]'
CODE = r"[\w.@]+"
QUOTED = rf"{QUOTE}{NOT_QUOTE}+{QUOTE}"
NAME = rf"(?:{CODE}|{QUOTED})"
COLOR = r"#[\w#/\\|-]+"
STYLE = r"(?:\[[^\]]*\])?"


def _part(prefix: str) -> str:
    """An arrow end: ``A``, ``"Long"``, ``"Long" as A`` or ``A as "Long"``."""
    return (
        rf"(?:(?P<{prefix}code>{CODE})"
        rf"|{QUOTE}(?P<{prefix}long>{NOT_QUOTE}+){QUOTE}"
        rf"|{QUOTE}(?P<{prefix}longc>{NOT_QUOTE}+){QUOTE}\s*as\s+(?P<{prefix}longcode>{CODE})"
        rf"|(?P<{prefix}codel>{CODE})\s+as\s*{QUOTE}(?P<{prefix}codellong>{NOT_QUOTE}+){QUOTE})"
    )


ANCHOR = r"(?:\{[\w]+\}\s+)?"

ARROW = re.compile(
    r"^(?P<parallel>&\s*)?"
    + ANCHOR
    + _part("p1")
    + ANCHOR
    + r"\s*"
    + r"(?P<d1>\s[oxOX]|(?:\s[oxOX]|\(\d+\))?<<?_?|(?:\s[oxOX])?//?|(?:\s[oxOX])?\\\\?)?"
    # PlantUML's body is ``-+[style]?-*`` or ``-*[style]?-+``: the same language as below,
    # written with possessive runs so that a long run of dashes cannot backtrack.
    + r"(?:(?P<ba1>-++)(?:\[(?P<st1>[^\]]*)\])?(?P<bb1>-*+)"
    + r"|(?P<ba2>)\[(?P<st2>[^\]]*)\](?P<bb2>-++))"
    + r"(?P<d2>_?>>?(?:[oxOX]\s|\(\d+\))?|//?(?:[oxOX]\s)?|\\\\?(?:[oxOX]\s)?|[oxOX]\s)?"
    + r"\s*"
    + _part("p2")
    + rf"(?P<multicast>(?:\s+&\s+{CODE})*)"
    + ANCHOR
    + r"\s*(?P<activation>\+\+--|--\+\+|\+\+|\*\*|!!|--)?"
    + r"\s*(?P<lifecolor>#\w+)?"
    + r"\s*(?P<stereo><<.*?>>)?"
    + r"\s*(?P<url>\[\[[^\]]*\]\])?"
    + r"\s*(?::\s*(?P<message>.*))?$"
)

_EXO_ARROW = (
    r"(?:(?P<both><<?|//?|\\\\?)?(?P<ba1>-++)(?:\[(?P<st1>[^\]]*)\])?(?P<bb1>-*+)"
    r"(?P<d1>>>?|//?|\\\\?)"
    r"|(?P<d2><<?|//?|\\\\?)(?:(?P<bb2>-*+)\[(?P<st2>[^\]]*)\](?P<ba2>-++)|(?P<ba2b>-++)))"
)
_EXO_TAIL = (
    r"\s*(?P<activation>[+*!-]+)?\s*(?P<lifecolor>#\w+)?\s*(?P<url>\[\[[^\]]*\]\])?"
    r"\s*(?::\s*(?P<message>.*))?$"
)

EXO_LEFT = re.compile(
    r"^(?P<parallel>&\s*)?(?P<short>[?\[\]][oxOX]?)?"
    + _EXO_ARROW
    + r"(?P<supp>[oxOX]\s+)?\s*"
    + rf"(?P<participant>{CODE}|{QUOTED})"
    + _EXO_TAIL
)

EXO_RIGHT = re.compile(
    r"^(?P<parallel>&\s*)?"
    + rf"(?P<participant>{CODE}|{QUOTED})"
    + r"(?:(?P<supp>\s+[oxOX])|\s*+)"
    + _EXO_ARROW
    + r"(?P<short>[oxOX]?[?\]\[])?"
    + _EXO_TAIL
)

PARTICIPANT_TYPES = (
    "participant",
    "actor",
    "boundary",
    "control",
    "entity",
    "database",
    "collections",
    "queue",
)

PARTICIPANT = re.compile(
    r"^(?P<create>create\s+)?(?P<type>" + "|".join(PARTICIPANT_TYPES) + r")\s+(?P<rest>.+?)\s*$",
    re.IGNORECASE,
)
CREATE_ONLY = re.compile(rf"^create\s+(?P<rest>{NAME}.*?)\s*$", re.IGNORECASE)

# The part of a declaration after the keyword: name, alias, stereotype, order, URL, colour.
PARTICIPANT_REST = re.compile(
    r"^(?:"
    rf"{QUOTE}(?P<full>{NOT_QUOTE}+){QUOTE}\s*as\s+(?P<code1>{CODE})"
    rf"|(?P<code2>{CODE})\s+as\s*{QUOTE}(?P<full2>{NOT_QUOTE}+){QUOTE}"
    rf"|(?P<code3>{CODE})\s+as\s+(?P<alias3>{CODE})"
    rf"|{QUOTE}(?P<full4>{NOT_QUOTE}+){QUOTE}"
    rf"|(?P<code5>{CODE})"
    r")"
    r"\s*(?P<stereo><<.*>>)?"
    r"\s*(?:order\s+-?\d+)?"
    r"\s*(?:\[\[[^\]]*\]\])?"
    rf"\s*(?P<color>{COLOR})?"
    r"\s*(?P<multiline>\[)?\s*$",
    re.IGNORECASE,
)

#: Grouping keywords the spec counts as ``group`` (openings, plus ``else``). PlantUML's other
#: grouping keywords (``par2``, ``also``, ``partition``) keep the nesting but count nothing.
COUNTED_GROUP_KEYWORDS = ("group", "alt", "opt", "loop", "par", "break", "critical", "else")

GROUP = re.compile(
    r"^(?P<parallel>&\s*)?"
    r"(?P<keyword>opt|alt|loop|par2|par|break|critical|else|also|group|partition)"
    r"(?P<color1>(?<!else)(?<!also)#\w+)?(?:\s+(?P<color2>#\w+))?(?:\s+(?P<label>.*?))?\s*$",
    re.IGNORECASE,
)

END = re.compile(r"^end(?:\s*(?P<what>.*?))?\s*$", re.IGNORECASE)

BOX = re.compile(r"^box(?:\s+(?P<rest>.*?))?\s*$", re.IGNORECASE)
BOX_REST = re.compile(
    rf"^(?:{QUOTE}(?P<quoted>{NOT_QUOTE}*){QUOTE}|(?P<plain>[^#<]*?))"
    rf"\s*(?:<<.*?>>)?\s*(?P<color>{COLOR})?\s*$"
)
END_BOX = re.compile(r"^end\s*box\s*$", re.IGNORECASE)

NOTE_PARTICIPANTS = rf"(?P<participants>{NAME}(?:\s*,\s*{NAME})*)"
NOTE = re.compile(
    r"^(?P<aligned>/\s*)?(?P<shape>note|hnote|rnote)\s+"
    r"(?:(?P<across>across)|(?P<position>left|right|over)(?:\s+of)?)"
    rf"(?:\s*(?<![\w.@]){NOTE_PARTICIPANTS})?"
    rf"\s*(?P<color>{COLOR})?"
    r"\s*(?:\[\[[^\]]*\]\])?"
    r"\s*(?::\s*(?P<text>.*))?\s*$",
    re.IGNORECASE,
)
END_NOTE = re.compile(r"^end\s*[hr]?note\s*$", re.IGNORECASE)

ACTIVATE = re.compile(
    rf"^(?P<verb>activate|deactivate|destroy)\s+(?P<name>{NAME})\s*(?:{COLOR})?\s*$",
    re.IGNORECASE,
)
DEACTIVATE_SHORT = re.compile(r"^deactivate\s*$", re.IGNORECASE)
RETURN = re.compile(r"^return(?:\s+(?P<message>.*?))?\s*$", re.IGNORECASE)

# Multi-line blocks that carry no metric: opening line, closing line.
BLOCKS: tuple[tuple[str, re.Pattern[str], re.Pattern[str]], ...] = (
    (
        "title",
        re.compile(r"^title\s*$", re.IGNORECASE),
        re.compile(r"^end\s*title\s*$", re.IGNORECASE),
    ),
    (
        "legend",
        re.compile(r"^legend(?:\s+(?:left|right|top|bottom|center))*\s*$", re.IGNORECASE),
        re.compile(r"^end\s*legend\s*$", re.IGNORECASE),
    ),
    (
        "header",
        re.compile(r"^(?:(?:left|right|center)\s+)?header\s*$", re.IGNORECASE),
        re.compile(r"^end\s*header\s*$", re.IGNORECASE),
    ),
    (
        "footer",
        re.compile(r"^(?:(?:left|right|center)\s+)?footer\s*$", re.IGNORECASE),
        re.compile(r"^end\s*footer\s*$", re.IGNORECASE),
    ),
    (
        "ref",
        re.compile(rf"^ref\s+over\s+{NAME}(?:\s*,\s*{NAME})*\s*(?:{COLOR})?\s*$", re.IGNORECASE),
        re.compile(r"^end\s*ref\s*$", re.IGNORECASE),
    ),
    (
        "style",
        re.compile(r"^<style>.*$", re.IGNORECASE),
        re.compile(r"^</style>\s*$", re.IGNORECASE),
    ),
)

# ``{ ... }`` blocks that carry no metric: ``skinparam x {``, ``sprite $name [16x16/16] {``.
BRACE_BLOCK = re.compile(r"^(?P<keyword>skinparam|sprite)\b[^{]*\{\s*$", re.IGNORECASE)

# Single lines that carry no metric.
NO_METRIC: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("startuml", re.compile(r"^@start\w*(?:\s.*)?$", re.IGNORECASE)),
    ("enduml", re.compile(r"^@end\w*\s*$", re.IGNORECASE)),
    ("title", re.compile(r"^title\s+\S.*$", re.IGNORECASE)),
    ("skinparam", re.compile(r"^skinparam\b.*$", re.IGNORECASE)),
    ("autonumber", re.compile(r"^autonumber\b.*$", re.IGNORECASE)),
    ("autoactivate", re.compile(r"^autoactivate\s+(?:on|off)\s*$", re.IGNORECASE)),
    ("hide", re.compile(r"^(?:hide|show)\s+\S.*$", re.IGNORECASE)),
    ("preprocessor", re.compile(r"^!.*$")),
    ("divider", re.compile(r"^==.*==\s*$")),
    ("delay", re.compile(r"^\.\.\..*$")),
    ("space", re.compile(r"^\|\|\d*\|\|\s*$|^\|\|\|\s*$")),
    ("newpage", re.compile(r"^(?:newpage|ignore\s+newpage)\b.*$", re.IGNORECASE)),
    ("autonewpage", re.compile(r"^page\s+.*$", re.IGNORECASE)),
    ("ref", re.compile(rf"^ref\s+over\s+{NAME}(?:\s*,\s*{NAME})*.*:.*$", re.IGNORECASE)),
    ("header", re.compile(r"^(?:(?:left|right|center)\s+)?(?:header|footer)\s+.*$", re.I)),
    ("legend", re.compile(r"^legend\b.*$", re.IGNORECASE)),
    ("caption", re.compile(r"^caption\s+.*$", re.IGNORECASE)),
    ("mainframe", re.compile(r"^mainframe\s+.*$", re.IGNORECASE)),
    ("scale", re.compile(r"^scale\s+.*$", re.IGNORECASE)),
    ("footbox", re.compile(r"^(?:hide|show)\s+footbox\s*$", re.IGNORECASE)),
    ("teoz", re.compile(r"^!pragma\s+.*$", re.IGNORECASE)),
    ("link", re.compile(r"^url\s+(?:of|for)\s+.*$", re.IGNORECASE)),
    ("anchor_duration", re.compile(r"^\{[\w]+\}\s*<->\s*\{[\w]+\}.*$")),
    ("sprite", re.compile(r"^sprite\s+.*$", re.IGNORECASE)),
)

# All single no-metric lines in one alternation: one ``match`` call instead of one per pattern.
NO_METRIC_ANY = re.compile(
    "|".join(
        f"(?P<k{index}>{pattern.pattern.lstrip('^')})"
        for index, (_, pattern) in enumerate(NO_METRIC)
    ),
    re.IGNORECASE,
)
NO_METRIC_KEYWORDS: dict[str, str] = {f"k{i}": keyword for i, (keyword, _) in enumerate(NO_METRIC)}
