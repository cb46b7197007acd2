#!/usr/bin/env python3
"""Write the playground's corpus manifest: every corpus/**/*.html page, for the picker.

    python3 playground/make_manifest.py [--corpus DIR] [--out FILE]

The pages themselves are served from corpus/ by serve.py; the manifest only lists them
(path relative to corpus/, category = first directory, size in bytes).
"""

import argparse
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Scratch output of tests and the generators' sources, not pages.
SKIP = ("generated/", "tools/")


def pages(corpus: Path) -> list[dict]:
    out = []
    for path in sorted(corpus.rglob("*.html")):
        rel = path.relative_to(corpus).as_posix()
        if rel.startswith(SKIP) or not path.is_file():
            continue
        category = rel.split("/", 1)[0] if "/" in rel else "top"
        out.append({"path": rel, "category": category, "bytes": path.stat().st_size})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    parser.add_argument("--out", type=Path, default=HERE / "build" / "corpus.json")
    args = parser.parse_args()
    listed = pages(args.corpus)
    if not listed:
        raise SystemExit(f"make_manifest: no .html pages under {args.corpus}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"pages": listed}, indent=1) + "\n", encoding="utf-8")
    print(f"make_manifest: {len(listed)} pages -> {args.out}")


if __name__ == "__main__":
    main()
