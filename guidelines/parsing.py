"""Turn a Markdown or plain-text guideline into citable sections with their section path.

Real law texts (see the corpus README) arrive messy: `### Artikel  3`, `###Artikel 13`, article
titles in a `####` line *before* the article heading (Arbowet) or *after* it (Arbobesluit),
bare-number sections in policy rules, `<meta>` lines, `<sup>` footnotes and relative links.
We therefore classify headings by what they say, not by their `#` level: structural headings
(Hoofdstuk, Afdeling, Titel N, §, Paragraaf, Artikel, Bijlage, a bare number) get fixed ranks; a
numbered chapter heading ("3 Inrichting", "2.4 Pauzes") ranks by its depth, so it closes an article
before it whatever its Markdown level; a text heading directly attached to a structural heading
becomes its title; any other text heading is a subsection ranked by its Markdown level.
"""

import html
import re
from dataclasses import dataclass, field

import nh3

# Part of every document's content hash: raise it when parsing changes, so re-ingesting the same
# text (load_demo, ingest_guidelines) rebuilds its sections instead of keeping the old ones.
PARSER_VERSION = 2
MAX_SECTION_WORDS = 320
OVERLAP_WORDS = 50

_HEADING = re.compile(r"^(#{1,6})\s*(.*?)\s*#*\s*$")
_STRUCTURAL = re.compile(
    r"^(?P<kind>Hoofdstuk|Afdeling|Titel|Paragraaf|§|Artikel)\s*"
    r"(?P<number>[0-9IVXLC]+[A-Za-z]{0,2}(?:[.:][0-9]+[A-Za-z]{0,2})*)\.?"
    r"(?:\s*[-–—:.]?\s+(?P<title>.+))?$",
    re.IGNORECASE,
)
_BARE_NUMBER = re.compile(r"^(?P<number>[0-9]+|[IVXLC]+)\.?$")
_NUMBERED_TITLE = re.compile(r"^(?P<number>\d+(?:\.\d+)*)\.?\s+(?P<title>[^\W\d].*)$")
_APPENDIX = re.compile(r"^Bijlage\b\s*(?P<rest>.*)$", re.IGNORECASE)
_KIND_RANK = {"bijlage": 1, "hoofdstuk": 1, "afdeling": 2, "titel": 2, "nummer": 2, "paragraaf": 3, "§": 3, "artikel": 4}
_SUBSECTION_RANK_OFFSET = 4
PREAMBLE_LABEL = "Aanhef"
_FOOTNOTE = re.compile(r"<sup>\s*(\d+)\s*(.*?)</sup>", re.IGNORECASE | re.DOTALL)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(\*{1,3}|_{2,3})(\S(?:.*?\S)?)\1")
_SENTENCE_END = re.compile(r"(?<=[.;:!?])\s+")


@dataclass
class Section:
    path: str
    article: str
    text: str


@dataclass
class _Node:
    rank: int
    label: str
    article: str = ""
    titled: bool = False
    structural: bool = False


@dataclass
class _Block:
    heading_level: int = 0
    heading: str = ""
    body: list[str] = field(default_factory=list)


def clean_inline(text: str) -> str:
    """Strip HTML, footnote markup, Markdown links/images and emphasis, keeping the readable text."""
    text = _FOOTNOTE.sub(lambda m: f" [noot {m.group(1)}: {m.group(2).strip()}]", text)
    text = _IMAGE.sub(lambda m: m.group(1), text)
    text = _LINK.sub(lambda m: m.group(1), text)
    text = html.unescape(nh3.clean(text, tags=set()))
    text = _EMPHASIS.sub(lambda m: m.group(2), text)
    return re.sub(r"[ \t\u00a0]+", " ", text).strip()


def _clean_heading(text: str) -> str:
    return clean_inline(_FOOTNOTE.sub("", text)).strip(" *_")


def _blocks(text: str) -> list[_Block]:
    blocks = [_Block()]
    for raw_line in text.splitlines():
        if raw_line.lstrip().lower().startswith("<meta"):
            continue
        match = _HEADING.match(raw_line.strip())
        if match and match.group(2):
            heading = _clean_heading(match.group(2))
            if heading:
                blocks.append(_Block(heading_level=len(match.group(1)), heading=heading))
                continue
        line = clean_inline(raw_line)
        if line:
            blocks[-1].body.append(line)
    return blocks


def _structural_node(heading: str) -> _Node | None:
    match = _STRUCTURAL.match(heading)
    if match:
        kind = match.group("kind").lower()
        if kind == "titel" and not match.group("number"):
            return None
        label = f"{match.group('kind').capitalize() if kind != '§' else '§'} {match.group('number')}"
        title = (match.group("title") or "").strip()
        return _Node(
            rank=_KIND_RANK[kind],
            label=f"{label} – {title}" if title else label,
            article=match.group("number") if kind == "artikel" else "",
            titled=bool(title),
            structural=True,
        )
    if _BARE_NUMBER.match(heading):
        return _Node(rank=_KIND_RANK["nummer"], label=heading.rstrip("."), structural=True)
    numbered = _NUMBERED_TITLE.match(heading)
    if numbered:
        depth = numbered.group("number").count(".")
        return _Node(rank=_KIND_RANK["nummer"] + depth, label=heading, titled=True, structural=True)
    appendix = _APPENDIX.match(heading)
    if appendix:
        rest = appendix.group("rest").strip()
        return _Node(rank=_KIND_RANK["bijlage"], label=f"Bijlage {rest}".strip(), titled=bool(rest), structural=True)
    return None


def parse_sections(text: str, *, document_title: str = "") -> list[Section]:
    """Split a document into sections (long ones into overlapping parts), each with its path and article."""
    blocks = _blocks(text)
    stack: list[_Node] = []
    sections: list[Section] = []
    inside_structure = False

    def emit(body: list[str]) -> None:
        if not body:
            return
        article = next((node.article for node in reversed(stack) if node.article), "")
        path = " > ".join(node.label for node in stack)
        for part in _split_long(body):
            sections.append(Section(path=path, article=article, text=part))

    emit(blocks[0].body)
    for index, block in enumerate(blocks[1:], start=1):
        node = _structural_node(block.heading)
        previous = blocks[index - 1]
        if node is not None:
            inside_structure = True
            while stack and stack[-1].rank >= node.rank:
                stack.pop()
            stack.append(node)
        elif _is_document_title(blocks, index, document_title):
            stack = [_Node(rank=0, label=PREAMBLE_LABEL)] if block.body else []
            emit(block.body)
            stack = []
            continue
        elif previous is not blocks[0] and _attach_title(stack, previous, block.heading):
            pass
        elif not block.body and _next_is_untitled_structural(blocks, index):
            blocks[index + 1].heading = f"{blocks[index + 1].heading} – {block.heading}"
        else:
            rank = _SUBSECTION_RANK_OFFSET + block.heading_level if inside_structure else block.heading_level
            while stack and stack[-1].rank >= rank:
                stack.pop()
            stack.append(_Node(rank=rank, label=block.heading))
        emit(block.body)
    return sections


def _is_document_title(blocks: list[_Block], index: int, document_title: str) -> bool:
    """The first heading names the document when it is a level-1 heading, matches the title, or tops a law."""
    if index != 1:
        return False
    heading = blocks[index]
    if heading.heading_level == 1 or (document_title and heading.heading.casefold() == document_title.casefold()):
        return True
    return heading.heading_level <= 2 and any(_structural_node(b.heading) for b in blocks[index + 1 :])


def _attach_title(stack: list[_Node], previous: _Block, heading: str) -> bool:
    """A text heading right after an untitled structural heading (no body between) is that heading's title."""
    if not stack or not stack[-1].structural or stack[-1].titled or previous.body:
        return False
    stack[-1].label = f"{stack[-1].label} – {heading}"
    stack[-1].titled = True
    return True


def _next_is_untitled_structural(blocks: list[_Block], index: int) -> bool:
    if index + 1 >= len(blocks):
        return False
    node = _structural_node(blocks[index + 1].heading)
    return node is not None and not node.titled


def _split_long(paragraphs: list[str]) -> list[str]:
    """Keep a section whole when short; otherwise cut it into ~MAX_SECTION_WORDS parts with overlap."""
    words_total = sum(len(p.split()) for p in paragraphs)
    if words_total <= MAX_SECTION_WORDS:
        return ["\n".join(paragraphs)]
    sentences = [s for p in paragraphs for s in _SENTENCE_END.split(p) if s.strip()]
    pieces: list[str] = []
    for sentence in sentences:
        words = sentence.split()
        while len(words) > MAX_SECTION_WORDS:
            pieces.append(" ".join(words[:MAX_SECTION_WORDS]))
            words = words[MAX_SECTION_WORDS - OVERLAP_WORDS :]
        pieces.append(" ".join(words))
    parts: list[str] = []
    current: list[str] = []
    for piece in pieces:
        if current and sum(len(s.split()) for s in current) + len(piece.split()) > MAX_SECTION_WORDS:
            parts.append(" ".join(current))
            overlap: list[str] = []
            while current and sum(len(s.split()) for s in overlap) < OVERLAP_WORDS:
                overlap.insert(0, current.pop())
            current = overlap
        current.append(piece)
    if current:
        parts.append(" ".join(current))
    return parts


def count_tokens(text: str) -> int:
    """Approximate token count (words and punctuation), good enough for budgeting context sizes."""
    return len(re.findall(r"\w+|[^\w\s]", text))
