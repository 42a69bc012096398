// Embedded memory maps follow this site's palette: MkDocs Material marks
// the scheme on <body> (slate is dark); each map's iframe is told with
// ?theme=, and reloads when the reader switches. Maps a page swapped in
// later (Material's instant navigation) are told as they come. Other
// themes say nothing: the maps follow the system's.
(() => {
  const sync = () => {
    const scheme = document.body.getAttribute('data-md-color-scheme');
    if (scheme === null) return;
    const theme = scheme === 'slate' ? 'dark' : 'light';
    for (const frame of document.querySelectorAll('iframe.memory-map')) {
      const url = new URL(frame.getAttribute('src'), location.href);
      if (url.searchParams.get('theme') === theme) continue;
      url.searchParams.set('theme', theme);
      frame.setAttribute('src', url.href);
    }
  };
  new MutationObserver(sync).observe(document.body, { attributes: true, attributeFilter: ['data-md-color-scheme'], childList: true, subtree: true });
  sync();
})();
