#!/bin/sh
# Fetch the real documentation pages scripts/realdocs/eval.py reads: Debian bookworm's -doc
# packages (apt-get download: no root, nothing installed), unpacked into .run/realdocs/ex;
# pod2html, pydoc and mandoc -Thtml (man pages of downloaded packages, rendered by the
# downloaded mandoc binary) pages generated into .run/realdocs/pages; a venv with the HTML
# parsers the reference extraction uses. Other sites' content: fetched, never vendored. Idempotent.
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
    libcommons-lang3-java-doc python-scrapy-doc"
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
echo "realdocs: pages in $work"
