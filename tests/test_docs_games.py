"""Each game's docs (docs/<game>.md) list every reading of its ruleset."""
import pytest

from helpers import ROOT
from leges.model.loader import load_declarations


@pytest.mark.parametrize("game", ["pompeii", "attika", "alexander"])
def test_every_reading_is_listed_in_the_games_docs(game):
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / game))
    text = (ROOT / "docs" / f"{game}.md").read_text()
    missing = [r.id for r in rs.readings if f"`{r.id}`" not in text]
    assert rs.readings and not missing, f"readings missing from docs/{game}.md: {missing}"
