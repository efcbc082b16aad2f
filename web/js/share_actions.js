// "Copy link" and "Embed" for one cell. The link and the iframe snippet are shown in read-only fields,
// so they can be copied by hand where the clipboard API is unavailable.
import { el } from './dom.js';
import { t } from './i18n.js';

const EMBED_HEIGHT_PX = 900;

/** get_links() → {link, embed}; title is the cell's title for the iframe. */
export function share_actions(get_links, get_title) {
  const status = el('span', { class: 'sl-share-status', role: 'status', 'aria-live': 'polite' });
  const output = el('div', { class: 'sl-share-output', hidden: true });

  const show = (label_key, text, multiline) => {
    const id = `sl-share-${Math.random().toString(36).slice(2)}`;
    const field = multiline
      ? el('textarea', { id, class: 'sl-input sl-share-field', readonly: true, rows: '3' }, text)
      : el('input', { id, class: 'sl-input sl-share-field', readonly: true, value: text });
    output.replaceChildren(el('label', { for: id, class: 'sl-label' }, t(label_key)), field);
    output.hidden = false;
    field.select();
    return field;
  };

  const copy = async (text) => {
    try {
      await navigator.clipboard.writeText(text);
      status.textContent = t('share.copied');
    } catch {
      status.textContent = t('share.copy_by_hand');
    }
  };

  const copy_link = () => {
    const { link } = get_links();
    show('share.link_label', link, false);
    copy(link);
  };
  const embed = () => {
    const { embed: url } = get_links();
    // The iframe works alone (it scrolls inside its height); with embed.js it takes its content's height.
    const listener = new URL('embed.js', url).href;
    const snippet = `<iframe src="${escape_attribute(url)}" title="${escape_attribute(get_title())}" ` +
      `width="100%" height="${EMBED_HEIGHT_PX}" style="border:0" loading="lazy"></iframe>\n` +
      `<script src="${escape_attribute(listener)}" defer></script>`;
    show('share.embed_label', snippet, true);
    copy(snippet);
  };

  return el('div', { class: 'sl-share' },
    el('button', { type: 'button', class: 'sl-button sl-button-small sl-copy-link', on: { click: copy_link } }, t('share.copy_link')),
    el('button', { type: 'button', class: 'sl-button sl-button-small sl-embed-button', on: { click: embed } }, t('share.embed')),
    status, output);
}

// The snippet is text the user pastes into their own HTML, so quote it as an attribute value.
function escape_attribute(text) {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
