import { describe, expect, it } from 'vitest';
import { xmlDepthOver } from '../../src/fileimport/xml-depth.js';

describe('xmlDepthOver (the .docx nesting check, a linear scan of tags)', () => {
  it('counts start tags, not empty-element tags, end tags, comments, CDATA, processing instructions or the DOCTYPE', () => {
    const xml =
      '<?xml version="1.0"?><!DOCTYPE d [<!ENTITY x "<a><b><c>">]><d><!-- <e><f><g> --><h a="x>y" b=\'/>\'><![CDATA[<i><j><k>]]>' +
      '<l/><m attr="1" /><?pi <n><o>?></h></d>';
    expect(xmlDepthOver(xml, 2)).toBeNull(); // d > h
    expect(xmlDepthOver(xml, 1)).toBe(2);
  });

  it('finds the first level past the limit in a deep document, and handles 80,000 levels without recursing', () => {
    const deep = '<w:tbl><w:tr><w:tc>'.repeat(20_000) + '<w:p/>' + '</w:tc></w:tr></w:tbl>'.repeat(20_000);
    expect(xmlDepthOver(deep, 256)).toBe(257);
    expect(xmlDepthOver(deep, 60_000)).toBeNull();
  });

  it('siblings do not add up', () => {
    expect(xmlDepthOver('<r>' + '<p><q>x</q></p>'.repeat(10_000) + '</r>', 3)).toBeNull();
  });
});
