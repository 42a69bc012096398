// Building DOM nodes. Text always goes in as text nodes (never as markup):
// a dump's names, strings and source lines cannot inject HTML.

/**
 * el('div', { class: 'x', dataset: { tile: name }, onclick: fn }, 'text', child)
 * Styles are set through the CSSOM (allowed under the page's CSP).
 */
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value == null || value === false) continue;
    if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (key === 'style') {
      for (const [name, v] of Object.entries(value)) {
        if (name.startsWith('--')) node.style.setProperty(name, v); // custom properties
        else node.style[name] = v;
      }
    }
    else if (key === 'text') node.textContent = value;
    else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) {
    if (child == null || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

/** Removes every child of `node`. */
export function clear(node) {
  while (node.firstChild) node.firstChild.remove();
}

/** An identifier as nodes that may break after each underscore or dot
 * (`deepseek_v3_2_decode_front` wraps as `deepseek_v3_2_` /
 * `decode_front`, not inside a word): text with <wbr> between the parts. */
export function identifier(name) {
  const parts = String(name).split(/(?<=[_.])/);
  return parts.flatMap((part, i) => (i ? [document.createElement('wbr'), part] : [part]));
}
