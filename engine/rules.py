"""Rules as a value: ko rule, suicide, scoring and komi, with named presets.

``Rules.parse(rules.text()) == rules`` for every rules value: a preset prints as
its name ("chinese"), anything else as ``key=value`` pairs.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, fields, replace

from engine.errors import KifuError


class KoRule(enum.Enum):
    """Which repetitions are forbidden.

    SIMPLE forbids only the immediate recapture of a single-stone ko; POSITIONAL
    (the Chinese rules' default, Art. 6 and 20) forbids recreating any earlier
    whole-board position; SITUATIONAL forbids it only with the same player to move.
    """

    SIMPLE = "simple"
    POSITIONAL = "positional"
    SITUATIONAL = "situational"


class Scoring(enum.Enum):
    """AREA: stones plus surrounded points (Chinese); TERRITORY: points plus prisoners."""

    AREA = "area"
    TERRITORY = "territory"


class RulesError(KifuError):
    """Rules text that names no preset and no valid ``key=value`` set."""


@dataclass(frozen=True, slots=True)
class Rules:
    """The rules a game is played under."""

    ko: KoRule = KoRule.POSITIONAL
    scoring: Scoring = Scoring.AREA
    suicide: bool = False
    komi: float = 7.5

    @classmethod
    def chinese(cls) -> Rules:
        """Chinese Weiqi Rules (2002): area counting, komi 3¾ stones, superko, no suicide."""
        return cls()

    @classmethod
    def japanese(cls) -> Rules:
        """Territory counting with komi 6.5 and simple ko (Japanese and Korean practice)."""
        return cls(ko=KoRule.SIMPLE, scoring=Scoring.TERRITORY, suicide=False, komi=6.5)

    @classmethod
    def parse(cls, text: str) -> Rules:
        """Read a preset name ("chinese", "japanese", "korean") or ``key=value,...``."""
        key = text.strip().lower()
        if key in PRESETS:
            return PRESETS[key]
        values: dict[str, object] = {}
        for item in filter(None, (part.strip() for part in key.split(","))):
            name, sep, value = item.partition("=")
            try:
                if not sep:
                    raise ValueError
                if name == "ko":
                    values[name] = KoRule(value)
                elif name == "scoring":
                    values[name] = Scoring(value)
                elif name == "suicide":
                    values[name] = {"allowed": True, "forbidden": False}[value]
                elif name == "komi":
                    komi = float(value)
                    if not math.isfinite(komi):  # nan would make every count a draw
                        raise ValueError
                    values[name] = komi
                else:
                    raise ValueError
            except (ValueError, KeyError):
                raise RulesError(
                    f"unknown rules {text!r}: use one of {sorted(PRESETS)} "
                    "or e.g. 'ko=simple,scoring=area,suicide=forbidden,komi=7.5'"
                ) from None
        if not values:
            raise RulesError(f"unknown rules {text!r}: use one of {sorted(PRESETS)}")
        return replace(cls(), **values)  # type: ignore[arg-type]

    def text(self) -> str:
        for name, preset in PRESETS.items():
            if preset == self:
                return name
        parts = []
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, enum.Enum):
                value = value.value
            elif isinstance(value, bool):
                value = "allowed" if value else "forbidden"
            parts.append(f"{f.name}={value}")
        return ",".join(parts)

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Rules.parse({self.text()!r})"

    def with_komi(self, komi: float) -> Rules:
        return replace(self, komi=komi)


PRESETS: dict[str, Rules] = {
    "chinese": Rules.chinese(),
    "japanese": Rules.japanese(),
}
PRESETS["chinese-2002"] = PRESETS["chinese"]
PRESETS["korean"] = PRESETS["japanese"]
