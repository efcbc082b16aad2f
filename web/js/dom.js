// A tiny element builder. Text is always inserted as text nodes (never as HTML), so data from the
// URL, the lab file or C++ cannot inject markup.

/**
 * el('button', {class: 'sl-button', type: 'button', on: {click: f}}, 'Run') → HTMLButtonElement.
 * Attributes with value null/undefined/false are skipped; true sets an empty attribute.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === 'on') {
      for (const [type, handler] of Object.entries(value)) node.addEventListener(type, handler);
    } else if (value === true) {
      node.setAttribute(name, '');
    } else if (value !== null && value !== undefined && value !== false) {
      node.setAttribute(name, String(value));
    }
  }
  append(node, children);
  return node;
}

/** Appends strings (as text), numbers, nodes and nested arrays; skips null/undefined/false. */
export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

/** Removes all children, then appends the given ones. */
export function replace_children(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}
