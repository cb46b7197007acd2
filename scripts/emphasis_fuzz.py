#!/usr/bin/env python3
"""Random nestings of <b>/<i>/<s> around words and punctuation through md-convert, read back
with markdown-it (CommonMark + strikethrough): how many outputs show a literal `*`, `_` or `~`
(leak), lose emphasis a character had in the HTML (lost), give a character emphasis it did not
have (wrong), or change the text (textdiff). With two binaries, also what changed between them.
The numbers in docs/CONFORMANCE.md ("Known limits") come from the defaults (4 seeds x 3000).

    .venv/bin/python scripts/emphasis_fuzz.py target/release/md-convert [OTHER_BIN]
        [--seeds 1,2,3,4] [--n 3000] [--show K] [--showlost K]

Not part of `make test`: it measures, it does not gate (about a minute).
"""
import random, subprocess, argparse
from concurrent.futures import ThreadPoolExecutor
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark").enable("strikethrough")
ap = argparse.ArgumentParser()
ap.add_argument("bins", nargs="+")
ap.add_argument("--seeds", default="1,2,3,4")
ap.add_argument("--n", type=int, default=3000)
ap.add_argument("--show", type=int, default=0)
ap.add_argument("--showlost", type=int, default=0)
a = ap.parse_args()
tags = ["b", "i", "s"]
KIND = {"b": "strong", "i": "em", "s": "s"}
words = ["a", "b", " c", "d ", "(e)", "f.", " "]
def gen(rng, depth=0):
    out = []
    for _ in range(rng.randint(1, 3)):
        if depth < 3 and rng.random() < 0.6:
            t = rng.choice(tags)
            out.append(f"<{t}>{gen(rng, depth+1)}</{t}>")
        else:
            out.append(rng.choice(words))
    return "".join(out)
def html_fmt(case):
    # per non-space char: frozenset of active kinds
    res = []; stack = []; i = 0
    while i < len(case):
        if case[i] == "<":
            j = case.index(">", i); tag = case[i+1:j]
            if tag.startswith("/"):
                if tag[1:] in KIND: stack.pop()
            elif tag in KIND: stack.append(KIND[tag])
            i = j + 1
        else:
            if not case[i].isspace(): res.append((case[i], frozenset(stack)))
            i += 1
    return res
def md_fmt(o):
    toks = md.parseInline(o.strip()) if o.strip() else []
    res = []; active = []; leak = False
    for tok in toks:
        for t in tok.children or []:
            if t.type.endswith("_open"): active.append(t.type[:-5])
            elif t.type.endswith("_close"): active.remove(t.type[:-6])
            elif t.type == "text":
                for ch in t.content:
                    if ch in "*_~": leak = True
                    elif not ch.isspace(): res.append((ch, frozenset(active)))
            elif t.type in ("softbreak", "hardbreak"): pass
            else: leak = True  # unexpected token
    return res, leak
def run1(b, c):
    return subprocess.run([b, "--no-front-matter"], input=c.encode(), capture_output=True).stdout.decode()
results = {}
for b in a.bins:
    tot = {"cases": 0, "leak": 0, "lost": 0, "wrong": 0, "textdiff": 0}
    per = []
    outs_all = []
    for seed in [int(s) for s in a.seeds.split(",")]:
        rng = random.Random(seed)
        cases = ["<p>" + rng.choice(["", "x", "x "]) + gen(rng) + rng.choice(["", "y", " y"]) + "</p>" for _ in range(a.n)]
        with ThreadPoolExecutor(4) as ex:
            outs = list(ex.map(lambda c: run1(b, c), cases))
        s = {"leak": 0, "lost": 0, "wrong": 0, "textdiff": 0}
        for c, o in zip(cases, outs):
            h = html_fmt(c[3:-4]); m, leak = md_fmt(o)
            lost = wrong = td = False
            if [x[0] for x in h] != [x[0] for x in m]: td = True
            else:
                for (ch, hf), (_, mf) in zip(h, m):
                    if hf - mf: lost = True
                    if mf - hf: wrong = True
            s["leak"] += leak; s["lost"] += lost; s["wrong"] += wrong; s["textdiff"] += td
            outs_all.append((c, o, leak, lost, wrong, td))
        per.append(s)
        tot["cases"] += len(cases)
        for k in s: tot[k] += s[k]
    results[b] = outs_all
    n = tot["cases"]
    print(f"{b}: cases {n} leak {tot['leak']} ({100*tot['leak']/n:.2f}%) lost {tot['lost']} ({100*tot['lost']/n:.2f}%) wrong {tot['wrong']} textdiff {tot['textdiff']}  per-seed leak {[p['leak'] for p in per]} lost {[p['lost'] for p in per]}")
    shown = 0
    for c, o, leak, lost, wrong, td in outs_all:
        if (leak or wrong or td) and shown < a.show:
            shown += 1; print("  LEAK" if leak else "  WRONG/TD", c, repr(o))
    shown = 0
    for c, o, leak, lost, wrong, td in outs_all:
        if lost and not leak and shown < a.showlost:
            shown += 1; print("  LOST", c, repr(o))
if len(a.bins) == 2:
    A, B = results[a.bins[0]], results[a.bins[1]]
    changed = sum(x[1] != y[1] for x, y in zip(A, B))
    newleak = [(x[0], x[1], y[1]) for x, y in zip(A, B) if y[2] and not x[2]]
    newlost = [(x[0], x[1], y[1]) for x, y in zip(A, B) if y[3] and not x[3] and not y[2]]
    newwrong = [(x[0], x[1], y[1]) for x, y in zip(A, B) if (y[4] or y[5]) and not (x[4] or x[5])]
    print("changed outputs", changed, "new leaks", len(newleak), "new lost", len(newlost), "new wrong/textdiff", len(newwrong))
    for tag, lst in (("NEWLEAK", newleak), ("NEWLOST", newlost), ("NEWWRONG", newwrong)):
        for c, x, y in lst[:max(a.show, 5)]:
            print(" ", tag, c, repr(x), "->", repr(y))
