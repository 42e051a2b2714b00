"""What a typed line asks for: a situation to search, or one of the slash commands."""

from dataclasses import dataclass

# (command, what it does), in the order /help lists them.
COMMANDS = (
    ("/vraag <vraag>", "een vraag over de richtlijnen en wetteksten, beantwoord met bronnen"),
    ("/help", "deze uitleg"),
    ("/health", "status van database, Redis, workers en embeddingmodel"),
    ("/clear", "het scherm leegmaken"),
    ("/exit", "stoppen (of Ctrl-D)"),
)


@dataclass(frozen=True)
class Line:
    """One line of input: `command` is "" for a situation, else the slash command in lower case."""

    command: str
    text: str


def line_parse(raw: str) -> Line | None:
    """The command and its text; None for an empty line (ignored)."""
    stripped = raw.strip()
    if not stripped:
        return None
    if not stripped.startswith("/"):
        return Line("", stripped)
    command, _, rest = stripped.partition(" ")
    return Line(command.lower(), rest.strip())
