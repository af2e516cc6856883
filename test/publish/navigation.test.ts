import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { describe, expect, it } from 'vitest';
import { FULL_NAVIGATION_LIMIT, navigationHtml, type NavItem } from '../../src/publish/navigation.js';

function space(sections: number, perSection: number): NavItem[] {
  return Array.from({ length: sections }, (_, s) => ({
    kind: 'document' as const,
    id: `s${s}`,
    title: `Section ${s}`,
    href: `s${s}/`,
    children: Array.from({ length: perSection }, (_, p) => ({
      kind: 'document' as const,
      id: `s${s}p${p}`,
      title: `Page ${s}.${p}`,
      href: `s${s}/p${p}/`,
      children: [],
    })),
  }));
}

describe('the navigation of a site space', () => {
  it('makes sections collapsible <details>, open only on the current page’s path', () => {
    const tree = fromHtml(navigationHtml(space(3, 4), 's1p2', '../'), { fragment: true });
    const details = selectAll('details', tree);
    expect(details).toHaveLength(3);
    expect(details.map((d) => d.properties.open === true)).toEqual([false, true, false]);
    expect(selectAll('li.section > a', tree).map((a) => a.properties.href)).toEqual(['../s0/', '../s1/', '../s2/']);
    // No link inside a toggle (axe: nested-interactive); each toggle is named after its section.
    expect(selectAll('summary a', tree)).toEqual([]);
    expect(selectAll('summary', tree).map((s) => s.properties.ariaLabel)).toEqual(['Pages under Section 0', 'Pages under Section 1', 'Pages under Section 2']);
    expect(selectAll('a[aria-current=page]', tree).map((a) => a.properties.href)).toEqual(['../s1/p2/']);
    expect(selectAll('a', tree)).toHaveLength(3 + 12);
  });

  it('does not repeat every page of a large space: sections off the current path list no pages', () => {
    expect(3 * 60).toBeGreaterThan(FULL_NAVIGATION_LIMIT);
    const html = navigationHtml(space(10, 100), 's4p7', '../../');
    const tree = fromHtml(html, { fragment: true });
    expect(selectAll('a', tree)).toHaveLength(10 + 100);
    expect(selectAll('details[open]', tree)).toHaveLength(1);
    expect(selectAll('li.has-pages > a', tree)).toHaveLength(9);
    expect(html.length).toBeLessThan(10_000);
    // On a section's own page, that section is open.
    expect(
      selectAll('li.section:has(> details[open]) > a[aria-current=page]', fromHtml(navigationHtml(space(10, 100), 's2', ''), { fragment: true })),
    ).toHaveLength(1);
  });
});
