"""docs/pompeii.md lists every reading of the Pompeii ruleset."""
from helpers import ROOT
from leges.model.loader import load_declarations


def test_every_reading_is_listed_in_the_games_docs():
    rs, _, _ = load_declarations(str(ROOT / "rulesets" / "pompeii"))
    text = (ROOT / "docs" / "pompeii.md").read_text()
    missing = [r.id for r in rs.readings if f"`{r.id}`" not in text]
    assert not missing, f"readings missing from docs/pompeii.md: {missing}"
