"""The report as one self-contained HTML page: the Markdown rendered, every plot embedded as a data URI.

The page needs no other file and no network: it can be mailed or opened from anywhere. Tables get a
readable style (numbers right-aligned, a header that stays in view, wide tables scroll sideways).
"""

from __future__ import annotations

import base64
import html
import re
from pathlib import Path

from markdown_it import MarkdownIt

STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0 auto; max-width: 1200px;
       padding: 1.5rem 2rem 4rem; color: #1d2731; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .3rem; } h2 { margin-top: 2.2rem; border-bottom: 2px solid #e3e8ee;
     padding-bottom: .2rem; } h3 { margin-top: 1.6rem; }
ul { padding-left: 1.3rem; } li { margin: .25rem 0; }
.answers { background: #f5f8fb; border-left: 4px solid #1f77b4; padding: .4rem 1.2rem; }
.scroll { overflow-x: auto; margin: .8rem 0; }
table { border-collapse: collapse; font-size: .86rem; font-variant-numeric: tabular-nums; }
th, td { padding: .28rem .6rem; border-bottom: 1px solid #e3e8ee; white-space: nowrap; }
th { position: sticky; top: 0; background: #eef2f6; text-align: left; }
tr:nth-child(even) td { background: #fafbfc; }
td[style*="right"], th[style*="right"] { text-align: right; }
img { max-width: 100%; height: auto; border: 1px solid #e3e8ee; margin: .6rem 0; }
code { background: #f0f2f4; padding: 0 .25rem; border-radius: 3px; }
"""


def _embed(text: str, root: Path) -> str:
    """Every ``<img src="x.png">`` whose file is under ``root`` as a ``data:image/png;base64`` URI."""

    def repl(m: re.Match[str]) -> str:
        src = html.unescape(m.group(2))
        path = root / src
        if src.startswith(("data:", "http:", "https:")) or not path.is_file():
            return m.group(0)
        data = base64.b64encode(path.read_bytes()).decode("ascii")
        return f'{m.group(1)}"data:image/png;base64,{data}"'

    return re.sub(r'(<img[^>]*\ssrc=)"([^"]+)"', repl, text)


def render(markdown: str, root: Path, title: str) -> str:
    """A whole HTML page from the report's Markdown; images read from ``root`` and embedded."""
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    body = md.render(markdown)
    body = re.sub(r"<table>", '<div class="scroll"><table>', body).replace("</table>", "</table></div>")
    # the answers: the list right after the "Answers" heading gets a frame of its own
    body = re.sub(r"(<h2>Answers</h2>\s*)<ul>", r'\1<ul class="answers">', body, count=1)
    body = _embed(body, root)
    return (
        f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n"
    )


def write_html(markdown: str, root: Path, path: Path, title: str) -> Path:
    path.write_text(render(markdown, root, title), encoding="utf-8")
    return path
