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
# MathJax: the loader and the pieces that TeX -> CommonHTML needs, which it fetches from its own
# folder (docs/assets/javascripts/mathjax.js lists them), and the woff fonts. Not the combined
# tex-chtml.js: 1.16 MB, of which 426 KB is the right-click menu (ui/menu), which no lesson needs.
mkdir -p "$dest/mathjax/input" "$dest/mathjax/output/chtml/fonts" "$dest/mathjax/a11y"
cp mathjax/es5/startup.js mathjax/es5/core.js mathjax/LICENSE "$dest/mathjax/"
cp mathjax/es5/input/tex.js "$dest/mathjax/input/"
cp mathjax/es5/output/chtml.js "$dest/mathjax/output/"
cp mathjax/es5/output/chtml/fonts/tex.js "$dest/mathjax/output/chtml/fonts/"
cp -r mathjax/es5/output/chtml/fonts/woff-v2 "$dest/mathjax/output/chtml/fonts/"
cp mathjax/es5/a11y/assistive-mml.js "$dest/mathjax/a11y/"
# mermaid: the self-contained browser build.
mkdir -p "$dest/mermaid"
cp mermaid/dist/mermaid.min.js mermaid/LICENSE "$dest/mermaid/"

printf 'mathjax %s (npm: mathjax)\nmermaid %s (npm: mermaid)\n' "$MATHJAX_VERSION" "$MERMAID_VERSION" \
    > "$dest/VERSIONS"
du -sh "$dest"
