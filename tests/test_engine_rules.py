"""Rules as a value: named presets and a text form that round-trips."""

from __future__ import annotations

import pytest

from engine import KoRule, Rules, Scoring
from engine.rules import PRESETS, RulesError


def test_the_chinese_rules_are_the_default() -> None:
    rules = Rules()
    assert rules == Rules.chinese() == Rules.parse("chinese") == Rules.parse("Chinese-2002")
    assert (rules.ko, rules.scoring, rules.suicide, rules.komi) == (
        KoRule.POSITIONAL,
        Scoring.AREA,
        False,
        7.5,
    )
    assert rules.text() == "chinese"


def test_territory_presets() -> None:
    assert Rules.parse("japanese") == Rules.parse("korean") == Rules.japanese()
    assert Rules.japanese().komi == 6.5
    assert Rules.japanese().scoring is Scoring.TERRITORY
    assert Rules.japanese().ko is KoRule.SIMPLE


@pytest.mark.parametrize(
    "rules",
    [
        *PRESETS.values(),
        Rules(ko=KoRule.SITUATIONAL),
        Rules(ko=KoRule.SIMPLE, suicide=True),
        Rules(scoring=Scoring.TERRITORY, komi=0.5),
        Rules.chinese().with_komi(5.5),
        Rules.japanese().with_komi(-3),
    ],
)
def test_text_round_trips(rules: Rules) -> None:
    assert Rules.parse(rules.text()) == rules
    assert str(rules) == rules.text()


def test_key_value_text() -> None:
    rules = Rules.parse("ko=situational, suicide=allowed, komi=6")
    assert rules == Rules(ko=KoRule.SITUATIONAL, suicide=True, komi=6.0)
    assert rules.text() == "ko=situational,scoring=area,suicide=allowed,komi=6.0"


@pytest.mark.parametrize(
    "text",
    [
        "snooker",
        "",
        "ko=none",
        "suicide=yes",
        "komi=lots",
        "komi=nan",
        "komi=-inf",
        "colour=black",
        "ko",
    ],
)
def test_unknown_rules_are_refused_quoting_the_text(text: str) -> None:
    with pytest.raises(RulesError, match=f"unknown rules {text!r}"):
        Rules.parse(text)
