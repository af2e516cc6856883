import { SECTION_SWITCHER_CSS } from './section-switcher.js';

/** The one stylesheet of a published site (served content-addressed, cached forever). */
export const SITE_CSS = `*,*::before,*::after{box-sizing:border-box}
:root{--fg:#1d1d1f;--muted:#5b5b66;--bg:#fff;--line:#e3e3e8;--accent:#2251d1;--code:#f5f5f7;--hl:#fff4c2;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;line-height:1.6;color:var(--fg);background:var(--bg)}
@media (prefers-color-scheme:dark){:root{--fg:#ececf1;--muted:#a5a5b0;--bg:#16161a;--line:#2c2c33;--accent:#8aa8ff;--code:#22222a;--hl:#3d3520}}
body{margin:0}
a{color:var(--accent)}
.skip-link{position:absolute;left:-999px;top:0;background:var(--bg);padding:.5rem 1rem;z-index:10}
.skip-link:focus{left:.5rem}
.site-header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.75rem 1.5rem;border-bottom:1px solid var(--line)}
.site-title{font-weight:700;text-decoration:none;color:var(--fg);font-size:1.1rem}
.site-logo{display:block;max-height:2rem;width:auto}
.header-links ul{display:flex;flex-wrap:wrap;gap:1rem;list-style:none;margin:0;padding:0}
.header-links details{position:relative}
.header-links details ul{position:absolute;z-index:5;flex-direction:column;gap:.3rem;background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:.5rem .8rem;min-width:10rem}
.site-spaces ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
.search{margin-left:auto;display:flex;gap:.25rem}
.search input{padding:.3rem .5rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg)}
.layout{display:grid;grid-template-columns:minmax(14rem,18rem) minmax(0,1fr) minmax(10rem,14rem);gap:2rem;max-width:90rem;margin:0 auto;padding:0 1.5rem}
@media (max-width:60rem){.layout{grid-template-columns:1fr}.toc{display:none}}
.sidebar{padding:1rem 0;font-size:.93rem}
.sidebar ul{list-style:none;margin:0;padding-left:.9rem}
.sidebar>ul{padding-left:0}
.sidebar li{margin:.15rem 0}
.sidebar a{text-decoration:none;color:var(--muted)}
.sidebar a[aria-current=page]{color:var(--accent);font-weight:600}
.sidebar details{border:0;padding:0;margin:0}
.sidebar li.section{position:relative}
.sidebar li.section>details>summary{position:absolute;left:-.95rem;top:0;width:.9rem;height:1.4em;font-weight:400;list-style-position:inside;overflow:hidden;color:var(--muted)}
.sidebar .has-pages>a::after{content:" ›"}
.menu-link,.drawer-close{display:none}
.nav-toggle{position:absolute;opacity:0;width:1px;height:1px;margin:0}
@media (max-width:60rem){.menu-link,.drawer-close{display:inline-block;cursor:pointer;padding:.3rem .7rem;border:1px solid var(--line);border-radius:4px}
.nav-toggle:focus-visible+.site-header .menu-link{outline:2px solid var(--accent)}
.layout>.sidebar{display:none;position:fixed;inset:0 auto 0 0;width:min(20rem,85vw);overflow:auto;z-index:20;background:var(--bg);padding:1rem;border-right:1px solid var(--line);box-shadow:0 0 0 100vmax rgba(0,0,0,.35)}
.nav-toggle:checked~.layout>.sidebar{display:block}
.drawer-close{margin-bottom:.75rem}}
.sidebar .group{font-weight:600;margin-top:1rem;text-transform:uppercase;font-size:.78rem;letter-spacing:.04em;color:var(--muted)}
main{min-width:0;padding:1rem 0 3rem}
.description{color:var(--muted);font-size:1.1rem}
h1,h2,h3,h4{line-height:1.25}
.anchor{margin-left:.4rem;text-decoration:none;opacity:.3;font-weight:400}
.anchor:hover,.anchor:focus{opacity:1}
pre{position:relative;background:var(--code);padding:.8rem 1rem;border-radius:6px;overflow:auto;font-size:.88rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.92em}
:not(pre)>code{background:var(--code);padding:.1rem .3rem;border-radius:3px}
.line-numbers code{counter-reset:line}
.line-numbers .line::before{counter-increment:line;content:counter(line);display:inline-block;width:2.5em;margin-right:1em;text-align:right;color:var(--muted)}
.line.highlighted{display:inline-block;min-width:100%;background:var(--hl);box-shadow:inset .25rem 0 0 var(--accent)}
.line.highlighted mark{background:none;color:inherit}
.wrap pre{white-space:pre-wrap}
.expandable-code{position:relative}
.code-expand{position:absolute;opacity:0;width:1px;height:1px}
.expandable-code .code-expand+pre{max-height:calc(10lh + 1.6rem);overflow:hidden}
.code-expand:checked+pre{max-height:none;overflow:auto}
.code-expand-label{display:inline-block;cursor:pointer;font-size:.85rem;color:var(--accent);padding:.2rem 0}
.code-expand:checked~.code-expand-label{display:none}
.code-expand:focus-visible~.code-expand-label{outline:2px solid var(--accent)}
.code-block{margin:1rem 0}
.copy-code{position:absolute;top:.4rem;right:.4rem;font-size:.75rem;padding:.1rem .5rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);cursor:pointer}
.pl-c{color:#59636e}.pl-c1,.pl-s .pl-v,.pl-ent,.pl-mh,.pl-mb{color:#0550ae}.pl-e,.pl-en{color:#6639ba}.pl-k{color:#cf222e}.pl-s,.pl-pds,.pl-sr,.pl-s .pl-pse .pl-s1{color:#0a3069}.pl-v,.pl-smw{color:#953800}.pl-mi1{color:#116329;background:#dafbe1}.pl-md{color:#82071e;background:#ffebe9}.pl-ii,.pl-c2{color:inherit}.pl-mi{font-style:italic}.pl-mb{font-weight:700}
@media (prefers-color-scheme:dark){.pl-c{color:#9198a1}.pl-c1,.pl-s .pl-v,.pl-ent,.pl-mh,.pl-mb{color:#79c0ff}.pl-e,.pl-en{color:#d2a8ff}.pl-k{color:#ff7b72}.pl-s,.pl-pds,.pl-sr,.pl-s .pl-pse .pl-s1{color:#a5d6ff}.pl-v,.pl-smw{color:#ffa657}.pl-mi1{color:#aff5b4;background:#033a16}.pl-md{color:#ffdcd7;background:#67060c}}
.code-block figcaption{font-size:.85rem;color:var(--muted);padding:.2rem 0}
table{border-collapse:collapse;display:block;overflow:auto;max-width:100%}
th,td{border:1px solid var(--line);padding:.35rem .6rem;text-align:left;vertical-align:top}
img{max-width:100%;height:auto}
figure{margin:1rem 0}
figcaption{color:var(--muted);font-size:.9rem}
.hint{border-left:4px solid var(--accent);background:var(--code);padding:.5rem 1rem;margin:1rem 0;border-radius:4px}
.hint-label{font-weight:600;margin:.2rem 0}
.hint-success{border-color:#1a7f37}.hint-warning{border-color:#b58100}.hint-danger{border-color:#cf222e}
.tabs{display:flex;flex-wrap:wrap;border:1px solid var(--line);border-radius:6px;margin:1rem 0}
.tab-input{position:absolute;opacity:0}
.tab-label{padding:.4rem .9rem;cursor:pointer;border-bottom:2px solid transparent}
.tab-input:checked+.tab-label{border-color:var(--accent);font-weight:600}
.tab-input:focus-visible+.tab-label{outline:2px solid var(--accent)}
.tab-panel{order:1;width:100%;padding:0 1rem;display:none;border-top:1px solid var(--line)}
.tab-input:checked+.tab-label+.tab-panel{display:block}
details{border:1px solid var(--line);border-radius:6px;padding:.4rem 1rem;margin:1rem 0}
summary{cursor:pointer;font-weight:600}
.cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(14rem,1fr));gap:.75rem;margin:1rem 0}
.card{display:block;border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;text-decoration:none}
.card-broken,.broken-link,.broken-image{color:var(--muted)}
.embed,.file{border:1px solid var(--line);border-radius:6px;padding:.6rem 1rem}
.file-size{color:var(--muted);margin-left:.5rem;font-size:.9rem}
.stepper{counter-reset:step;list-style:none;padding-left:0}
.step{position:relative;padding-left:2.5rem;margin:1rem 0}
.step::before{counter-increment:step;content:counter(step);position:absolute;left:0;width:1.8rem;height:1.8rem;border-radius:50%;background:var(--code);text-align:center;font-weight:600}
.columns{display:flex;flex-wrap:wrap;gap:1.5rem}
.column{flex:1 1 16rem;min-width:0}
.valign-middle{align-self:center}.valign-bottom{align-self:flex-end}
.math-display{overflow:auto;text-align:center;padding:.5rem}
.openapi-operation{border:1px solid var(--line);border-radius:6px;padding:.5rem 1rem;margin:1rem 0}
.method{font-weight:700;font-family:ui-monospace,monospace;padding:.1rem .4rem;border-radius:3px;background:var(--code)}
.responses dt{font-weight:600}
.toc{font-size:.85rem;padding:1rem 0;position:sticky;top:0;align-self:start}
.toc ul{list-style:none;padding-left:0}
.toc .d3{padding-left:.8rem}
.pagination{display:flex;justify-content:space-between;border-top:1px solid var(--line);margin-top:3rem;padding-top:1rem;gap:1rem}
.layout-search{grid-template-columns:minmax(0,48rem);justify-content:center}
.search-page{display:flex;gap:.25rem;flex-wrap:wrap;align-items:center}
.search-page input{flex:1 1 16rem;padding:.4rem .6rem;border:1px solid var(--line);border-radius:4px;background:var(--bg);color:var(--fg);font-size:1rem}
.search-results{list-style:none;padding:0}
.search-results>li{margin:1.25rem 0}
.search-results .crumbs{color:var(--muted);font-size:.85rem;margin:0}
.search-results .hit-title{font-size:1.1rem;font-weight:600}
.search-results .snippet{margin:.2rem 0 0 1rem}
mark{background:#fff1a8;color:inherit}
@media (prefers-color-scheme:dark){mark{background:#5c4d00}}
.changed-mark{font-size:.7rem;text-transform:uppercase;letter-spacing:.04em;padding:0 .3rem;border-radius:3px;background:#fff1a8;color:#1d1d1f}
.preview-banner{background:var(--code);border-bottom:1px solid var(--line);padding:.4rem 1.5rem;font-size:.9rem}
.site-footer{border-top:1px solid var(--line);padding:1rem 1.5rem;color:var(--muted);font-size:.85rem}
${SECTION_SWITCHER_CSS}`;
