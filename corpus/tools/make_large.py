#!/usr/bin/env python3
"""Generate the large and benchmark documentation pages in corpus/large/.

Pages imitate a single-page "print view" of product documentation for a fictional
job scheduler: site header, version banner, a sidebar listing every section,
varied prose, headings, code blocks in several languages, option tables, lists,
admonitions and a heavy footer. Output is byte-for-byte deterministic (a private
splitmix64 PRNG, not `random`, so results do not depend on the Python version):

    python3 corpus/tools/make_large.py            # all four files
    python3 corpus/tools/make_large.py --check    # regenerate in memory, compare with disk
"""
import argparse
import html
import sys
from pathlib import Path

OUT_DIR = Path(__file__).resolve().parent.parent / "large"
MIB = 1024 * 1024

# name -> (seed, minimum size in bytes, target size in bytes, title)
TARGETS = {
    "bench-10kb.html": (10, 9_500, 10_240, "Quick start"),
    "bench-1200kb.html": (1200, 1_150_000, 1_200_000, "Operator guide (print view)"),
    "docs-1mb.html": (1, MIB, MIB + 40_000, "Complete reference (print view)"),
    "docs-5mb.html": (5, 5 * MIB, 5 * MIB + 120_000, "Complete reference, all versions (print view)"),
}


class Rng:
    """splitmix64: tiny, fast, and stable everywhere."""

    def __init__(self, seed):
        self.state = seed & 0xFFFFFFFFFFFFFFFF

    def next(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, n):
        return self.next() % n

    def pick(self, seq):
        return seq[self.below(len(seq))]

    def chance(self, percent):
        return self.below(100) < percent


COMPONENTS = [
    "scheduler", "dispatcher", "worker pool", "lease manager", "retry queue", "audit log",
    "metrics exporter", "admin API", "web console", "artifact store", "secret broker",
    "cron parser", "dependency resolver", "rate limiter", "event bus", "snapshot service",
    "quota controller", "webhook relay", "tenant registry", "config loader", "health checker",
    "backfill engine", "priority router", "log shipper", "state store", "plugin host",
    "notification service", "garbage collector", "leader election", "timezone resolver",
]
ADJ = ["idle", "pending", "stale", "orphaned", "throttled", "paused", "expired", "queued",
       "failed", "running", "draining", "sharded", "replicated", "cached", "deferred"]
NOUNS = ["job", "lease", "worker", "tenant", "queue", "snapshot", "artifact", "trigger",
         "schedule", "run", "partition", "token", "checkpoint", "heartbeat", "webhook"]
VERBS = ["stores", "renews", "evicts", "schedules", "retries", "validates", "publishes",
         "records", "compacts", "forwards", "rejects", "batches", "reconciles", "expires"]
SUBJECTS = ["The {c}", "Each {c}", "By default the {c}", "In clustered mode the {c}",
            "When {a} {n}s accumulate, the {c}", "On start-up the {c}", "Internally, the {c}"]
CLAUSES = [
    "{v} {a} {n}s every {k} seconds",
    "{v} each {n} before it is handed to the {c2}",
    "{v} the {n} table in batches of {k} rows",
    "only {v} {n}s that belong to the current tenant",
    "{v} {a} {n}s unless <code>{opt}</code> is set to <code>false</code>",
    "{v} {n}s in the order they were received",
    "{v} a {n} at most once per <em>{k}-second</em> window",
]
TAILS = [
    ", which keeps memory use flat under load.",
    "; see <a href=\"#{anchor}\">{title}</a> for the details.",
    ". This behaviour changed in version {maj}.{minr}.",
    " so that a restart never loses acknowledged work.",
    ". Operators rarely need to tune this.",
    ", and emits the <code>{metric}</code> metric while doing so.",
    " without taking a global lock.",
    ". If this is not what you want, lower <code>{opt}</code>.",
]
OPTS = ["max_inflight", "lease_ttl", "retry_backoff", "batch_size", "shard_count", "drain_timeout",
        "heartbeat_interval", "compaction_window", "queue_depth", "tenant_quota", "gc_interval",
        "snapshot_every", "webhook_timeout", "log_level", "clock_skew_tolerance", "strict_mode"]
LANGS = ["yaml", "bash", "python", "rust", "json", "sql", "toml", "go"]


def ident(s):
    return s.replace(" ", "_")


def slug(s):
    return "".join(ch if ch.isalnum() else "-" for ch in s.lower()).strip("-")


class Doc:
    def __init__(self, seed):
        self.r = Rng(seed)
        self.sections = []  # (anchor, title)

    def sentence(self):
        r = self.r
        c = r.pick(COMPONENTS)
        fill = dict(c=c, c2=r.pick(COMPONENTS), a=r.pick(ADJ), n=r.pick(NOUNS), v=r.pick(VERBS),
                    k=5 * (1 + r.below(60)), opt=r.pick(OPTS), maj=1 + r.below(4), minr=r.below(12),
                    metric="harbour_" + ident(c) + "_" + r.pick(NOUNS) + "s_total")
        tail = r.pick(TAILS)
        if "{anchor}" in tail:
            if self.sections:
                anchor, title = self.sections[r.below(len(self.sections))]
                fill.update(anchor=anchor, title=html.escape(title))
            else:
                tail = ". Operators rarely need to tune this."
        s = (r.pick(SUBJECTS) + " " + r.pick(CLAUSES) + tail).format(**fill)
        return s

    def paragraph(self):
        return "<p>" + " ".join(self.sentence() for _ in range(2 + self.r.below(4))) + "</p>\n"

    def code(self):
        r = self.r
        lang = r.pick(LANGS)
        c = ident(r.pick(COMPONENTS))
        o1, o2 = r.pick(OPTS), r.pick(OPTS)
        n = 1 + r.below(64)
        bodies = {
            "yaml": f"{c}:\n  enabled: true\n  {o1}: {n}\n  {o2}: \"{n * 5}s\"\n  tenants:\n    - name: team-{n}\n      weight: {1 + r.below(9)}\n",
            "bash": f"$ harbour {c.replace('_', '-')} status --format=table\n$ harbour config set {c}.{o1} {n}\n$ harbour {c.replace('_', '-')} drain --timeout {n}s && echo \"drained\"\n",
            "python": f"from harbour import Client\n\nclient = Client(\"https://harbour.internal:8443\")\nfor job in client.jobs(state=\"{r.pick(ADJ)}\", limit={n}):\n    if job.attempts &gt; {1 + r.below(5)}:\n        client.cancel(job.id, reason=\"too many retries\")\n",
            "rust": f"let cfg = harbour::Config::builder()\n    .{o1}({n})\n    .{o2}(Duration::from_secs({n * 3}))\n    .build()?;\nlet {c} = harbour::{c.title().replace('_', '')}::new(cfg);\n{c}.run().await?;\n",
            "json": f"{{\n  \"component\": \"{c}\",\n  \"{o1}\": {n},\n  \"state\": \"{r.pick(ADJ)}\",\n  \"counts\": {{ \"{r.pick(NOUNS)}s\": {n * 17}, \"errors\": {r.below(5)} }}\n}}\n",
            "sql": f"SELECT tenant_id, count(*) AS {r.pick(ADJ)}_{r.pick(NOUNS)}s\n  FROM {c}_{r.pick(NOUNS)}s\n WHERE updated_at &lt; now() - interval '{n} minutes'\n GROUP BY tenant_id\n ORDER BY 2 DESC\n LIMIT {n};\n",
            "toml": f"[{c}]\n{o1} = {n}\n{o2} = \"{n}m\"\n\n[{c}.limits]\nburst = {n * 10}\n",
            "go": f"func handle{c.title().replace('_', '')}(ctx context.Context, j *Job) error {{\n\tif j.Attempts &gt; {1 + r.below(5)} {{\n\t\treturn ErrGiveUp\n\t}}\n\treturn j.Retry(ctx, {n}*time.Second)\n}}\n",
        }
        caption = ""
        if r.chance(30):
            caption = f'<div class="code-title">{c.replace("_", "-")}.{ {"bash": "sh", "python": "py", "rust": "rs"}.get(lang, lang)}</div>'
        return (f'<div class="code-block">{caption}<pre><code class="language-{lang}">{bodies[lang]}</code></pre>'
                f'<button class="copy" aria-label="Copy code">Copy</button></div>\n')

    def table(self):
        r = self.r
        kind = r.below(3)
        if kind == 0:
            head = "<tr><th>Option</th><th>Type</th><th style=\"text-align:right\">Default</th><th>Description</th></tr>"
            rows = []
            for _ in range(3 + r.below(6)):
                o = r.pick(OPTS)
                typ = r.pick(["integer", "duration", "boolean", "string", "size"])
                default = {"integer": str(r.below(1000)), "duration": f"{5 * (1 + r.below(24))}s",
                           "boolean": r.pick(["true", "false"]), "string": f"\"{r.pick(ADJ)}\"",
                           "size": f"{1 + r.below(64)} MiB"}[typ]
                rows.append(f"<tr><td><code>{o}</code></td><td>{typ}</td><td style=\"text-align:right\"><code>{default}</code></td><td>{self.sentence()}</td></tr>")
        elif kind == 1:
            head = "<tr><th>Metric</th><th>Kind</th><th>Labels</th></tr>"
            rows = [f"<tr><td><code>harbour_{ident(r.pick(COMPONENTS))}_{r.pick(NOUNS)}s_{r.pick(['total', 'seconds', 'bytes'])}</code></td><td>{r.pick(['counter', 'gauge', 'histogram'])}</td><td><code>tenant</code>, <code>{r.pick(NOUNS)}</code></td></tr>" for _ in range(3 + r.below(5))]
        else:
            head = "<tr><th>Method</th><th>Path</th><th>Description</th></tr>"
            rows = [f"<tr><td><code>{r.pick(['GET', 'POST', 'PUT', 'DELETE'])}</code></td><td><code>/v{1 + r.below(3)}/{r.pick(NOUNS)}s/{{id}}/{r.pick(VERBS)[:-1]}</code></td><td>{self.sentence()}</td></tr>" for _ in range(2 + r.below(5))]
        return f'<div class="table-wrap"><table class="docutils">\n<thead>{head}</thead>\n<tbody>\n' + "\n".join(rows) + "\n</tbody></table></div>\n"

    def listing(self):
        r = self.r
        tag = "ol" if r.chance(50) else "ul"
        items = []
        for _ in range(3 + r.below(5)):
            item = self.sentence()
            if r.chance(15):
                item += f"\n<ul><li>{self.sentence()}</li><li>{self.sentence()}</li></ul>"
            items.append(f"<li>{item}</li>")
        return f"<{tag}>\n" + "\n".join(items) + f"\n</{tag}>\n"

    def admonition(self):
        kind = self.r.pick(["note", "tip", "warning", "danger"])
        return (f'<div class="admonition {kind}"><p class="admonition-title">{kind.title()}</p>'
                f"<p>{self.sentence()} {self.sentence()}</p></div>\n")

    def block(self):
        roll = self.r.below(100)
        if roll < 50:
            return self.paragraph()
        if roll < 65:
            return self.code()
        if roll < 77:
            return self.listing()
        if roll < 90:
            return self.table()
        return self.admonition()

    def section(self, number, version):
        r = self.r
        comp = r.pick(COMPONENTS)
        title = r.pick(["Configuring the {c}", "How the {c} works", "Troubleshooting the {c}",
                        "Scaling the {c}", "Monitoring the {c}", "Securing the {c}",
                        "Upgrading the {c}", "The {c} API"]).format(c=comp)
        anchor = f"s{number}-{slug(title)}"
        out = [f'<section id="{anchor}">\n<h2>{number}. {html.escape(title)}<a class="headerlink" href="#{anchor}" title="Permalink">¶</a></h2>\n']
        if version:
            out.append(f'<p class="versionadded">Applies to {version}.</p>\n')
        for _ in range(2 + r.below(4)):
            out.append(self.block())
        for sub in range(r.below(4)):
            st = r.pick(["Defaults", "Examples", "Edge cases", "Performance", "Failure modes",
                         "Limits", "Compatibility", "Internals"])
            out.append(f'<h3 id="{anchor}-{sub}">{number}.{sub + 1} {st}</h3>\n')
            for _ in range(1 + r.below(4)):
                out.append(self.block())
            if r.chance(25):
                out.append(f'<h4>{r.pick(["Example", "Note on ordering", "Why this matters"])}</h4>\n{self.paragraph()}')
        out.append("</section>\n")
        self.sections.append((anchor, f"{number}. {title}"))
        return "".join(out)


def chrome(title, sections, body, small):
    nav = "\n".join(f'<li class="toctree-l1"><a class="reference internal" href="#{a}">{html.escape(t)}</a></li>' for a, t in sections)
    head = f"""<!DOCTYPE html>
<html lang="en" data-theme="light">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)} — Harbourmaster documentation</title>
<meta name="description" content="Harbourmaster is a distributed job scheduler. {html.escape(title)}.">
<meta name="generator" content="corpus/tools/make_large.py">
<link rel="stylesheet" href="/_static/theme.css">
<link rel="stylesheet" href="/_static/pygments.css">
<script>window.DOCS_VERSION = "4.2"; window.SEARCH_INDEX = "/searchindex.js";</script>
<script defer src="/_static/theme.js"></script>
</head>
<body class="docs print-view">
<div class="announcement" role="banner">Harbourmaster 4.2 is out. <a href="/releases/4.2">Read the release notes</a>.</div>
<header class="site-header">
<a class="logo" href="/">Harbourmaster</a>
<nav class="top-nav" aria-label="Main"><a href="/docs/">Docs</a> <a href="/api/">API</a> <a href="/blog/">Blog</a> <a href="/community/">Community</a> <a href="https://github.example/harbourmaster/harbourmaster">GitHub</a></nav>
<form class="search" action="/search.html" method="get" role="search"><input type="search" name="q" placeholder="Search docs" aria-label="Search docs"></form>
<select class="version-switcher" aria-label="Version"><option selected>4.2 (stable)</option><option>4.1</option><option>4.0</option><option>3.x (legacy)</option><option>dev</option></select>
</header>
<div class="layout">
<nav class="sidebar" aria-label="Sections">
<p class="caption">Contents</p>
<ul>
{nav}
</ul>
</nav>
<main class="content" role="main">
<div class="breadcrumbs"><a href="/docs/">Docs</a> » {html.escape(title)}</div>
<h1>{html.escape(title)}</h1>
"""
    foot_cols = "" if small else "".join(
        f'<div class="footer-col"><h4>{h}</h4><ul>' + "".join(f'<li><a href="/{slug(h)}/{slug(x)}">{x}</a></li>' for x in items) + "</ul></div>"
        for h, items in [("Product", ["Overview", "Features", "Pricing", "Roadmap", "Changelog"]),
                         ("Docs", ["Quick start", "Tutorials", "Reference", "API", "FAQ"]),
                         ("Community", ["Forum", "Chat", "Events", "Contributing", "Code of conduct"]),
                         ("Company", ["About", "Careers", "Security", "Privacy", "Terms"])])
    tail = f"""<div class="page-nav"><a class="prev" href="/docs/install.html">« Installation</a> <a class="next" href="/docs/api.html">API reference »</a></div>
</main>
</div>
<footer class="site-footer">{foot_cols}<p>© 2019–2024 The Harbourmaster authors. Documentation licensed under CC BY 4.0.</p></footer>
<div class="cookie-banner" id="cookie-banner"><p>We use a single first-party cookie to remember your theme and version choice.</p><button onclick="this.parentNode.remove()">OK</button></div>
<script>document.querySelectorAll('button.copy').forEach(b => b.addEventListener('click', () => navigator.clipboard.writeText(b.previousSibling.textContent)));</script>
</body>
</html>
"""
    return head + body + tail


def nav_entry_len(anchor, title):
    return len(f'<li class="toctree-l1"><a class="reference internal" href="#{anchor}">{html.escape(title)}</a></li>\n'.encode("utf-8"))


def build(name):
    seed, minimum, target, title = TARGETS[name]
    doc = Doc(seed)
    small = target < 50_000
    versions = ["4.x", "3.x", "2.x"] if name == "docs-5mb.html" else [None]
    parts = [doc.paragraph(), doc.paragraph()]
    # Track the size incrementally; re-rendering the page per section would be quadratic.
    size = len(chrome(title, [], "", small).encode("utf-8")) + sum(len(x.encode("utf-8")) for x in parts)
    number = 0
    attempts = 0
    while size < target:
        number += 1
        version = versions[number * len(versions) // 400 % len(versions)] if versions[0] else None
        sec = doc.section(number, version)
        grow = len(sec.encode("utf-8")) + nav_entry_len(*doc.sections[-1])
        # Small pages should land near the target: drop a section that overshoots by >10%
        # and draw another one (deterministically) until one fits.
        if small and size + grow > target * 1.1:
            doc.sections.pop()
            number -= 1
            attempts += 1
            if size >= minimum or attempts > 200:
                break
            continue
        parts.append(sec)
        size += grow
    page = chrome(title, doc.sections, "".join(parts), small).encode("utf-8")
    return page


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="verify files on disk match the generator")
    args = ap.parse_args()
    ok = True
    for name, (_, minimum, target, _) in TARGETS.items():
        data = build(name)
        assert len(data) >= minimum, (name, len(data))
        path = OUT_DIR / name
        if args.check:
            same = path.exists() and path.read_bytes() == data
            ok &= same
            print(f"{'ok  ' if same else 'DIFF'} large/{name}")
        else:
            path.write_bytes(data)
            print(f"wrote large/{name} ({len(data):,} bytes, target {target:,})")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
