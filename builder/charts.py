"""Pictures every kind may use: the QR code of a share link, and the bar chart of a dice distribution."""
from __future__ import annotations

from typing import Any

import segno

CHART_W, CHART_H = 220, 70


def qr_data_uri(url: str) -> str:
    return segno.make(url, error="m").svg_data_uri(scale=3, border=1)


def distribution_chart(attack: dict[str, Any]) -> dict[str, Any] | None:
    """Bars of P(outcome), the hitting outcomes (from `hit_from`) in the accent colour; SVG geometry preformatted."""
    if not attack.get("reachable") or not attack.get("distribution"):
        return None
    outcomes = sorted(attack["distribution"].items())
    top = max(p for _, p in outcomes)
    width = (CHART_W - 10) / len(outcomes)
    bars = []
    for i, (k, p) in enumerate(outcomes):
        height = (CHART_H - 16) * p / top
        bars.append({"x": f"{5 + i * width:.1f}", "w": f"{max(1.0, width - 1):.1f}", "y": f"{CHART_H - 12 - height:.1f}",
                     "h": f"{height:.1f}", "hit": k >= attack["hit_from"], "k": k, "p": f"{100 * p:.1f}",
                     "label_x": f"{5 + i * width + width / 2:.1f}"})
    return {"w": CHART_W, "h": CHART_H, "bars": bars, "label_y": CHART_H - 2, "every": max(1, len(outcomes) // 8),
            "hit_from": attack["hit_from"]}
