"""DARK METAL: Mercenaries in the Deep. A Squad Leader and the allies hired from the same budgets, d10 pools."""
from pathlib import Path

from ..spec import Dice, DiceOption, ItemRef, Kind, PackLink, Preview, Ruleset
from . import audit, campaign, places, preview, rules, summary, table
from .dice import darkmetal_pool
from .schema import CATEGORIES, CATEGORY_LABELS, SKILLS, TRAIT_NAMES, LeaderBuild

RULESET = Ruleset(
    key="darkmetal",
    name="DARK METAL",
    tagline="Squad Leaders and allies on Reputation budgets, d10 pools.",
    # Saved Leaders may be changed freely: what a change costs is shown, not blocked (DM-R51-DM-R53); only the
    # campaign records stand once saved.
    kinds=(Kind("leader", "Squad Leader", LeaderBuild, "armor", rules.validate, check_update=campaign.check_update,
                items=(ItemRef("armor.item", "armor"), ItemRef("modifications[].item", "modifications[]"),
                       ItemRef("hands[].item", "hands[]"), ItemRef("attach[].item", "attach[]"),
                       ItemRef("backpack[].item", "backpack[]"), ItemRef("allies[].template", "allies[]"),
                       ItemRef("allies[].hired_as"), ItemRef("allies[].upgrades[].template", "allies[].upgrades[]"),
                       ItemRef("allies[].armor"), ItemRef("allies[].weapons[]", "allies[].weapons[]"),
                       ItemRef("allies[].items[]", "allies[].items[]"), ItemRef("injuries[].item", "injuries[]")),
                places=places.leader_places, cosmetic=("name", "notes", "player"), detail=rules.LeaderDetail,
                summary=summary.leader, previewer=Preview(preview.preview_leader, {"situation": preview.Situation}),
                tabletop=table.LEADER),),
    categories=CATEGORIES,
    category_labels=CATEGORY_LABELS,
    data_dir=Path(__file__).parent / "data",
    dice=Dice((DiceOption("pool", "number of d10"), DiceOption("target", "target number", 2, 11),
               DiceOption("defence", "defence d6 (each 1 cancels a success)", default=0)),
              lambda pool, target, defence: darkmetal_pool(pool, target, defence)),
    # A build's traits and Knowledge skills by their names where its fields are listed (what changed between saves).
    stat_labels={**TRAIT_NAMES, **SKILLS, "ahp": "AHP", "bhp": "BHP", "to_hit": "toHit", "max_range": "Max Range", "sys": "Sys",
                 "requires_any": "Requires", "requires_skill": "Requires skill", "excludes": "Not with",
                 "max_count": "Bought up to", "not_with_armor": "No armour", "cost_per_bulk": "Cost per Bulk",
                 "close_combat_penalty": "Close Combat penalty", "com_half_steps": "Com half steps"},
    signed_stats=frozenset({"to_hit"}),
    leading_columns=("cost", "carry", "attach_points", "score", "to_hit", "damage", "pierce", "max_range"),
    effect_notes=audit.notes,
    pack_links=(PackLink("ally_template", "upgrades_from[]", ("ally_template",)),
                PackLink("ally_template", "weapons[]", ("weapon", "attach_weapon")),
                PackLink("ally_template", "free_weapons[]", ("weapon", "attach_weapon")),
                *(PackLink(category, path, ("splice", "cyber")) for category in ("splice", "cyber")
                  for path in ("requires_any[]", "excludes[]", "grants.alongside"))),
    item_summary=places.summary,
)
