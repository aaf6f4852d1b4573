// MathJax 3 configuration for pymdownx.arithmatex (generic mode). overrides/main.html loads it only
// on pages with a formula, just before the vendored component (assets/vendor/mathjax/), which
// fetches its fonts from beside itself and typesets the page once when it starts.
//
// Nothing here typesets again. The site has no instant navigation, so a page is typeset exactly
// once. Material's recipe for instant navigation (on document$: clearCache, typesetClear,
// texReset, typesetPromise) is wrong here: run after MathJax's first pass, clearCache() drops the
// CHTML character styles, and every formula is left as blank space (issue 7).
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"]],
    displayMath: [["\\[", "\\]"]],
    processEscapes: true,
    processEnvironments: true
  },
  options: {
    ignoreHtmlClass: ".*|",
    processHtmlClass: "arithmatex"
  }
};
