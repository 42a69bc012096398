// Taking what the page shows elsewhere: a card's map as an SVG file or a
// PNG on the clipboard (drawn by the core), the link to the view, and the
// line inspector's question of where a tile fits (answered by the core).
import { el } from '../base/dom.js';
import { $, page, readingOf } from '../base/page-state.js';
import { isDark } from '../base/theme.js';

/** Share → Copy as PNG or Save SVG of `card`'s map as shown (in the
 * page's theme, with the live profile when it is on): the core draws it
 * as SVG (mm_analyze_svg); a PNG is that SVG drawn at twice the size.
 * Returns what happened, for the card to say. */
export async function exportMap(model, card, kind) {
  const input = page.input;
  const svg = await page.engine.svg(input.bytes.slice(0), {
    ...readingOf(input), fn: model.functions.indexOf(card.fn), dark: isDark(), ...card.exportView(),
  });
  const stem = `${input.name.replace(/\.py$/, '')}.${card.fn.name}`;
  if (kind === 'svg') {
    download(new Blob([svg], { type: 'image/svg+xml' }), `${stem}.svg`);
    return `saved ${stem}.svg`;
  }
  const png = await svgToPng(svg);
  try {
    await navigator.clipboard.write([new ClipboardItem({ 'image/png': png })]);
    return 'copied: paste it';
  } catch {
    download(png, `${stem}.png`); // file:// and some browsers refuse the clipboard
    return `the clipboard is not allowed here: saved ${stem}.png`;
  }
}

/** The line inspector's question put to the core: where a tile of
 * `size` bytes live on lines first..last fits in `space` of `card`'s
 * function (the dump read again in the worker, as for Share). */
export function fitTile(model, card, { space, size, first, last }) {
  const input = page.input;
  return page.engine.fit(input.bytes.slice(0), {
    ...readingOf(input), fn: model.functions.indexOf(card.fn), space, size, first, last,
  });
}

/** The SVG text drawn on a canvas at twice its size, as a PNG blob. */
async function svgToPng(svg) {
  const image = new Image();
  image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.naturalWidth * 2;
  canvas.height = image.naturalHeight * 2;
  const context = canvas.getContext('2d');
  context.scale(2, 2);
  context.drawImage(image, 0, 0);
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the image is too large to draw'))), 'image/png'));
}

/** Saves `blob` as a file named `name` (the browser's download). */
function download(blob, name) {
  const link = el('a', { href: URL.createObjectURL(blob), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
}

/** Copies the page's URL (the hash holds the view); where the clipboard is
 * refused (file://, old browsers) the link is shown selected instead. */
export async function copyLink() {
  const button = $('copy-link');
  const url = location.href;
  try {
    await navigator.clipboard.writeText(url);
    button.textContent = 'Link copied';
  } catch {
    document.querySelector('.link-field')?.remove();
    const field = el('input', { class: 'link-field', readonly: true, value: url, 'aria-label': 'Link to this view' });
    button.after(field);
    field.select();
    button.textContent = 'Copy the link →';
  }
  setTimeout(() => { button.textContent = 'Copy link'; }, 2000);
}
