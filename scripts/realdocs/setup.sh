#!/bin/sh
# Fetch the real documentation pages scripts/realdocs/eval.py reads: Debian bookworm's -doc
# packages (apt-get download: no root, nothing installed), unpacked into .run/realdocs/ex;
# pod2html, pydoc, mandoc -Thtml (man pages of downloaded packages, rendered by the
# downloaded mandoc binary), TypeDoc and JSDoc (pinned, from npm, on pinned npm packages'
# sources) pages generated into .run/realdocs/pages; a venv with the HTML parsers the
# reference extraction uses. Other sites' content: fetched, never vendored. Idempotent.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${REALDOCS_DIR:-$root/.run/realdocs}
mkdir -p "$work/debs" "$work/ex" "$work/pages"
if [ ! -x "$work/venv/bin/python" ]; then
    python3 -m venv "$work/venv"
    "$work/venv/bin/pip" install -q markdown-it-py==4.0.0 beautifulsoup4==4.15.0 html5lib==1.1
fi
cd "$work/debs"
old="libsdl2-doc doxygen-doc git-doc python3.11-doc qtbase5-doc-html vim-doc sqlite3-doc erlang-doc
    libghc-aeson-doc perl-doc"
new="rust-doc racket-doc r-doc-html postgresql-doc-15 python-scipy-doc asciidoctor-doc mkdocs-doc
    libglib2.0-doc libgtk-4-doc python-django-doc sphinx-doc python-flask-doc mandoc curl
    manpages-dev openssh-client
    libcommons-lang3-java-doc python-scrapy-doc python-cffi-doc
    golang-1.19-doc python-pytest-doc ruby-mocha-doc
    cppreference-doc-en-html libboost1.81-doc"
# Each package once: a work dir that had the first ten (.done) fetches just the newer ones.
if [ -f .done ]; then for p in $old; do touch "$p.done"; done; fi
for p in $old $new; do
    [ -f "$p.done" ] && continue
    rm -f "${p}"_*.deb
    apt-get download "$p"
    dpkg-deb -x "${p}"_*.deb ../ex/
    touch "$p.done"
done
cd ../pages
pod=../ex/usr/share/perl/5.36.0/pod
[ -f perlintro.html ] || pod2html --infile=$pod/perlintro.pod --outfile=perlintro.html --htmlroot=/perldoc --quiet
[ -f perlsyn.html ] || pod2html --infile=$pod/perlsyn.pod --outfile=perlsyn.html --htmlroot=/perldoc --quiet
rm -f pod2htm*
[ -f json.html ] || python3 -m pydoc -w json textwrap >/dev/null
# Man pages as manpages.debian.org publishes them (mandoc -Thtml; cross references become
# links in man7.org's layout). The mandoc unpacked from its .deb, or one on the PATH.
mandoc=../ex/usr/bin/mandoc
[ -x "$mandoc" ] || mandoc=$(command -v mandoc) || { echo "realdocs: no mandoc (package mandoc)" >&2; exit 1; }
man=../ex/usr/share/man
for m in man1/curl.1 man3/getaddrinfo.3 man5/ssh_config.5; do
    n=${m#*/}
    [ -s "$n.html" ] && continue
    "$mandoc" -Thtml -Ostyle=mandoc.css,man=../man%S/%N.%S.html "$man/$m.gz" >"$n.tmp"
    mv "$n.tmp" "$n.html"
done
# TypeDoc and JSDoc, pinned, from npm into the work dir (nothing global, nothing vendored),
# run on real libraries' published sources: Immer's src/*.ts, Commander's lib/*.js.
if [ ! -f "$work/npm/.done" ]; then
    command -v npm >/dev/null || { echo "realdocs: no npm (TypeDoc and JSDoc pages)" >&2; exit 1; }
    npm install --prefix "$work/npm" --no-save --ignore-scripts --no-audit --no-fund -q \
        typedoc@0.28.20 typescript@5.8.3 immer@10.1.1 jsdoc@4.0.5 commander@12.1.0
    touch "$work/npm/.done"
fi
nm=$work/npm/node_modules
if [ ! -s typedoc/classes/Immer.html ]; then
    # A tsconfig naming Immer's sources, as its repository builds them (no emit).
    printf '%s\n' '{"compilerOptions": {"target": "ES2020", "module": "ESNext",' \
        '"moduleResolution": "node", "strict": true, "skipLibCheck": true, "noEmit": true,' \
        '"lib": ["ES2020", "DOM"]}, "include": ["node_modules/immer/src/**/*.ts"]}' \
        >"$work/npm/tsconfig.immer.json"
    "$nm/.bin/typedoc" --tsconfig "$work/npm/tsconfig.immer.json" --skipErrorChecking \
        --logLevel Error --out typedoc "$nm/immer/src/immer.ts"
fi
if [ ! -s jsdoc/Command.html ]; then
    # help.js left out: its `import("…")` typedefs are TypeScript syntax JSDoc cannot parse.
    lib=$nm/commander/lib
    "$nm/.bin/jsdoc" "$lib/command.js" "$lib/option.js" "$lib/argument.js" "$lib/error.js" -d jsdoc
fi
echo "realdocs: pages in $work"
