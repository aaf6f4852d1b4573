#!/usr/bin/env bash
# Refresh the JavaScript the site serves itself (no CDN): MathJax and mermaid, from the npm registry.
#   bash scripts/vendor-assets.sh
# Writes docs/assets/vendor/{mathjax,mermaid}/ with only the files the pages load, plus each licence.
set -euo pipefail
MATHJAX_VERSION=3.2.2
MERMAID_VERSION=11.17.2

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="$root/docs/assets/vendor"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

cd "$tmp"
npm pack --silent "mathjax@$MATHJAX_VERSION" "mermaid@$MERMAID_VERSION" > /dev/null
mkdir mathjax mermaid
tar -xzf "mathjax-$MATHJAX_VERSION.tgz" -C mathjax --strip-components=1
tar -xzf "mermaid-$MERMAID_VERSION.tgz" -C mermaid --strip-components=1

rm -rf "$dest/mathjax" "$dest/mermaid"
# MathJax: the TeX -> CommonHTML component and the woff fonts it fetches from its own folder.
mkdir -p "$dest/mathjax/output/chtml/fonts"
cp mathjax/es5/tex-chtml.js mathjax/LICENSE "$dest/mathjax/"
cp -r mathjax/es5/output/chtml/fonts/woff-v2 "$dest/mathjax/output/chtml/fonts/"
# mermaid: the self-contained browser build.
mkdir -p "$dest/mermaid"
cp mermaid/dist/mermaid.min.js mermaid/LICENSE "$dest/mermaid/"

printf 'mathjax %s (npm: mathjax)\nmermaid %s (npm: mermaid)\n' "$MATHJAX_VERSION" "$MERMAID_VERSION" \
    > "$dest/VERSIONS"
du -sh "$dest"
