import { createHash } from 'node:crypto';

/**
 * The one script of a published site: a "Copy" button on each code block (progressive enhancement: without it,
 * or without JavaScript, the page is the same minus the button). External, content-addressed, loaded with its
 * `integrity`, and allowed by the Content Security Policy through its hash only (./csp.ts): no other script runs.
 */
export const COPY_JS = `document.querySelectorAll('pre>code').forEach(function(code){
var pre=code.parentNode,button=document.createElement('button');
button.type='button';button.className='copy-code';button.textContent='Copy';
button.setAttribute('aria-label','Copy code to clipboard');
button.addEventListener('click',function(){
if(!navigator.clipboard)return;
navigator.clipboard.writeText(code.textContent).then(function(){button.textContent='Copied';setTimeout(function(){button.textContent='Copy'},1500)});
});
pre.insertBefore(button,code);
});
`;

const digest = createHash('sha256').update(COPY_JS).digest();

/** `sha256-<base64>`: the script's integrity and its CSP hash source. */
export const COPY_JS_INTEGRITY = `sha256-${digest.toString('base64')}`;
export const COPY_JS_PATH = `_static/copy.${digest.toString('hex').slice(0, 16)}.js`;
