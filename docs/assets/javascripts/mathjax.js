// MathJax 3 configuration for pymdownx.arithmatex (generic mode). overrides/main.html loads it only
// on pages with a formula, just before the vendored loader (assets/vendor/mathjax/startup.js), which
// fetches the components listed below and their fonts from beside itself and typesets the page once when it starts.
//
// Nothing here typesets again. The site has no instant navigation, so a page is typeset exactly
// once. Material's recipe for instant navigation (on document$: clearCache, typesetClear,
// texReset, typesetPromise) is wrong here: run after MathJax's first pass, clearCache() drops the
// CHTML character styles, and every formula is left as blank space (issue 7).
window.MathJax = {
  // The pieces of tex-chtml.js without its right-click menu (426 of its 1,161 KB): startup.js
  // fetches each from its own folder, and CommonHTML fetches its font data and woff files.
  // assistive-mml gives screen readers each formula as MathML.
  loader: {
    load: ["input/tex", "output/chtml", "a11y/assistive-mml"]
  },
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
