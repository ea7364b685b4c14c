"""Draw the app's icons (PNG, for the web app manifest and the browser tab) with Pillow.

Run ``python tools/make_icons.py``; the icons are committed under ``src/fiftysix/server/static/icons/``.
A maskable icon keeps its drawing inside the central 80 % safe zone.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parent.parent / "src" / "fiftysix" / "server" / "static" / "icons"
FELT = (20, 108, 67)
GOLD = (255, 193, 7)


def draw(size: int, maskable: bool) -> Image.Image:
    img = Image.new("RGB", (size, size), FELT)
    d = ImageDraw.Draw(img)
    inset = size * (0.2 if maskable else 0.08)
    # a card, slightly turned: white face, gold border
    box = (inset + size * 0.08, inset, size - inset - size * 0.08, size - inset)
    d.rounded_rectangle(box, radius=size * 0.06, fill=(255, 255, 255), outline=GOLD, width=max(2, size // 40))
    font = ImageFont.load_default(size=int(size * (0.3 if maskable else 0.36)))
    d.text((size / 2, size / 2), "56", fill=(17, 17, 17), font=font, anchor="mm")
    return img


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw(size, False).save(OUT / f"icon-{size}.png", optimize=True)
    draw(512, True).save(OUT / "icon-maskable-512.png", optimize=True)
    draw(180, False).save(OUT / "apple-touch-icon.png", optimize=True)
    draw(32, False).save(OUT / "favicon-32.png", optimize=True)


if __name__ == "__main__":
    main()
