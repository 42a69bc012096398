// Embedded memory maps follow this site's palette: Material marks the
// scheme on <body> (slate is dark); each map's iframe is told with
// ?theme=, and reloads when the reader switches.
(() => {
  const sync = () => {
    const theme = document.body.getAttribute('data-md-color-scheme') === 'slate' ? 'dark' : 'light';
    for (const frame of document.querySelectorAll('iframe.memory-map')) {
      const url = new URL(frame.getAttribute('src'), location.href);
      if (url.searchParams.get('theme') === theme) continue;
      url.searchParams.set('theme', theme);
      frame.setAttribute('src', url.href);
    }
  };
  new MutationObserver(sync).observe(document.body, { attributes: true, attributeFilter: ['data-md-color-scheme'] });
  sync();
})();
