// The page's address in the browser's history. Written absolute, so a page
// with no URL of its own (a notebook's iframe srcdoc, about:srcdoc, whose
// relative URLs resolve against the notebook's) can still keep its view in
// its hash.

const here = () => location.href.replace(/[?#].*$/, '');

/** Sets the address to `search` and `hash` (each with its ? or #, or '');
 * `push` adds a history entry. A document that cannot take the address
 * (a query on about:srcdoc) keeps its own: the view stays unlinked. */
export function setAddress(search, hash, { push = false } = {}) {
  const url = `${here()}${search}${hash}`;
  if (url === location.href && !push) return;
  try {
    history[push ? 'pushState' : 'replaceState'](null, '', url);
  } catch {
    /* see above */
  }
}

/** Whether the page can be linked to: not a document written into a frame. */
export const hasOwnAddress = () => location.protocol !== 'about:';
