import { el, attr, text } from './hast.js';
import type { BlockRenderer } from './types.js';

function size(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** `{% file src="…" %}caption{% endfile %}`: a download link with the file's name, size and caption. */
export const fileBlock: BlockRenderer = {
  names: ['file'],
  render(node, { state, links }) {
    const src = attr(node, 'src') ?? '';
    const href = links.href(src);
    const target = links.link(src);
    const name = target?.name ?? src.split('/').pop() ?? src;
    const caption = attr(node, 'caption');
    return el('div', { className: ['file'] }, [
      href ? el('a', { href, download: true }, [text(name)]) : el('span', { className: ['broken'] }, [text(name)]),
      ...(target?.size !== undefined ? [el('span', { className: ['file-size'] }, [text(size(target.size))])] : []),
      ...(caption ? [el('p', {}, [text(caption)])] : []),
      ...(node.children.length > 0 ? state.all(node as never) : []),
    ]);
  },
};
