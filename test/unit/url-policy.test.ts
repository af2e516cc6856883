import { describe, expect, it } from 'vitest';
import { isAbsoluteAllowedUrl, isAllowedImageUrl, isAllowedLinkUrl, refusedSchemeLabel, urlScheme } from '../../src/url-policy/index.js';

/** Schemes hidden the ways browsers and markdown readers still see them. */
const HOSTILE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  ' javascript:alert(1)',
  '\u0001\u0002javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\r\nscript:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;avascript:alert(1)',
  '&#X6a;avascript:alert(1)',
  '&#0000106;avascript:alert(1)',
  '&#106avascript:alert(1)',
  'javascript&colon;alert(1)',
  'javascript&#58;alert(1)',
  'java&Tab;script:alert(1)',
  'java&NewLine;script:alert(1)',
  '&amp;#106;avascript:alert(1)',
  'vbscript:msgbox(1)',
  'VBScript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:image/png;base64,iVBORw0KGgo=',
  'DATA:text/html,<script>alert(1)</script>',
  'file:///etc/passwd',
  'tel:+123456',
  'blob:https://x.test/1',
  'livescript:alert(1)',
  'jar:http://x!/',
];

const ALLOWED = [
  'https://example.com/a?b=c#d',
  'HTTP://EXAMPLE.COM',
  'http://example.com/javascript:alert(1)',
  'mailto:someone@example.com',
  'MAILTO:someone@example.com',
  '//cdn.example.com/x.png',
  '#anchor',
  '#javascript:not-a-scheme',
  'guide/install.md',
  '../README.md#step-2',
  './a:b',
  '/absolute/path?x=javascript:1',
  '?q=1',
  '',
];

describe('the URL policy', () => {
  it('refuses every scheme but http, https and mailto, however it is hidden', () => {
    for (const url of HOSTILE) expect(isAllowedLinkUrl(url), JSON.stringify(url)).toBe(false);
    for (const url of HOSTILE) expect(isAllowedImageUrl(url), JSON.stringify(url)).toBe(false);
  });

  it('allows http, https, mailto, relative URLs and anchors as links', () => {
    for (const url of ALLOWED) expect(isAllowedLinkUrl(url), JSON.stringify(url)).toBe(true);
  });

  it('allows images from http, https and relative URLs only', () => {
    expect(isAllowedImageUrl('https://x.test/a.png')).toBe(true);
    expect(isAllowedImageUrl('.gitbook/assets/a.png')).toBe(true);
    expect(isAllowedImageUrl('mailto:a@b.test')).toBe(false);
  });

  it('tells absolute URLs from site-relative ones and names the refused scheme', () => {
    expect(isAbsoluteAllowedUrl('https://x.test')).toBe(true);
    expect(isAbsoluteAllowedUrl('mailto:a@b.test')).toBe(true);
    expect(isAbsoluteAllowedUrl('guide/')).toBe(false);
    expect(isAbsoluteAllowedUrl('//x.test')).toBe(false);
    expect(isAbsoluteAllowedUrl('javascript:alert(1)')).toBe(false);
    expect(urlScheme('&#106;avascript:alert(1)')).toBe('javascript');
    expect(refusedSchemeLabel('java\tscript:alert(1)')).toBe('javascript:');
    expect(refusedSchemeLabel('&#x6A;avascript:x')).toBe('javascript:');
    expect(refusedSchemeLabel('DATA:text/html,x')).toBe('data:');
  });
});
