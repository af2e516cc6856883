import { describe, expect, it } from 'vitest';
import { analyzeHtmlPage, convertHtmlPage, type NavEntry } from '../../src/webimport/html-page.js';

/** Each generator's page markup, cut down from what the real generators emit (same classes and nesting). */
const convert = (html: string, pageUrl: string): string => convertHtmlPage(html, { pageUrl, linkTargets: {}, assetTargets: {} }).markdown;
const outline = (entries: NavEntry[]): unknown[] => entries.map((e) => (e.children.length ? [e.title, e.url, outline(e.children)] : [e.title, e.url]));

describe('extraction per generator', () => {
  it('HonKit / legacy GitBook: the markdown section, the summary with its parts, the title without the book name', () => {
    const html = `<html><head><title>Install · My Book</title><meta name="generator" content="HonKit 6.1.7"><meta name="description" content="How to install"></head><body>
      <div class="book"><div class="book-summary"><div id="book-search-input"><input></div><nav role="navigation"><ul class="summary">
        <li class="chapter" data-path="./"><a href="./">Introduction</a></li>
        <li class="chapter active" data-path="install.html"><a href="install.html">Install</a>
          <ul class="articles"><li class="chapter"><a href="install/linux.html">Linux</a></li></ul></li>
        <li class="divider"></li><li class="header">Reference</li>
        <li class="chapter"><a href="api.html">API</a></li>
        <li class="divider"></li><li><a href="https://github.com/honkit/honkit" class="gitbook-link">Published with HonKit</a></li>
      </ul></nav></div>
      <div class="book-body"><div class="body-inner"><div class="book-header"><h1><a href=".">Install</a></h1></div>
      <div class="page-wrapper" role="main"><div class="page-inner"><div id="book-search-results"><div class="search-noresults">
        <section class="normal markdown-section"><h1 id="install"><a name="install" class="plugin-anchor" href="#install"><i class="fa fa-link"></i></a>Install</h1>
        <p>Run the <a href="api.html#run">installer</a>.</p></section>
      </div></div></div></div></div>
      <a href="./" class="navigation navigation-prev">‹</a><a href="api.html" class="navigation navigation-next">›</a></div></div></body></html>`;
    const page = analyzeHtmlPage(html, 'https://docs.test/book/install.html');
    expect(page).toMatchObject({ generator: 'honkit', title: 'Install', description: 'How to install', links: ['https://docs.test/book/api.html'] });
    expect(outline(page.nav)).toEqual([
      ['Introduction', 'https://docs.test/book/'],
      ['Install', 'https://docs.test/book/install.html', [['Linux', 'https://docs.test/book/install/linux.html']]],
      ['Reference', null, [['API', 'https://docs.test/book/api.html']]],
    ]);
    expect(convert(html, 'https://docs.test/book/install.html')).toBe('Run the [installer](https://docs.test/book/api.html#run).\n');
  });

  it('MkDocs (mkdocs theme): the role=main column, the navbar with a dropdown section, no permalinks', () => {
    const html = `<html><head><title>Setup - Project</title></head><body>
      <div class="navbar fixed-top"><div class="container"><a class="navbar-brand" href="..">Project</a><div id="navbar-collapse">
        <ul class="nav navbar-nav"><li class="navitem"><a href=".." class="nav-link">Home</a></li>
          <li class="dropdown active"><a href="#" class="nav-link dropdown-toggle" data-toggle="dropdown">Guide <b class="caret"></b></a>
            <ul class="dropdown-menu"><li><a href="./" class="dropdown-item active">Setup</a></li><li><a href="../usage/" class="dropdown-item">Usage</a></li></ul></li></ul>
        <ul class="nav navbar-nav ml-auto"><li class="nav-item"><a href="#" data-toggle="modal" class="nav-link">Search</a></li><li class="nav-item"><a href="https://github.com/x/y/edit/main/docs/setup.md" class="nav-link">Edit on GitHub</a></li></ul>
      </div></div></div>
      <div class="container"><div class="row"><div class="col-md-3"><div class="navbar-light bs-sidebar"><ul class="nav flex-column"><li class="nav-item"><a href="#setup" class="nav-link">Setup</a></li></ul></div></div>
      <div class="col-md-9" role="main"><h1 id="setup">Setup</h1><p>Configure it.</p></div></div></div>
      <footer class="col-md-12"><hr><p>Documentation built with <a href="https://www.mkdocs.org/">MkDocs</a>.</p></footer>
      <div class="modal" id="mkdocs_search_modal"></div></body></html>`;
    const page = analyzeHtmlPage(html, 'https://docs.test/setup/');
    expect(page.generator).toBe('mkdocs');
    expect(page.title).toBe('Setup');
    expect(outline(page.nav)).toEqual([
      ['Home', 'https://docs.test/'],
      [
        'Guide',
        null,
        [
          ['Setup', 'https://docs.test/setup/'],
          ['Usage', 'https://docs.test/usage/'],
        ],
      ],
    ]);
    expect(convert(html, 'https://docs.test/setup/')).toBe('Configure it.\n');
  });

  it('Material for MkDocs: the article, the primary navigation with sections, no edit button or permalinks', () => {
    const html = `<html><head><meta name="generator" content="mkdocs-1.5.3, mkdocs-material-9.5.3"><title>Tokens - API Docs</title></head><body data-md-color-scheme="default">
      <div class="md-container"><main class="md-main"><div class="md-main__inner md-grid">
      <div class="md-sidebar md-sidebar--primary"><nav class="md-nav md-nav--primary" data-md-level="0"><label class="md-nav__title" for="__drawer">API Docs</label>
        <ul class="md-nav__list"><li class="md-nav__item"><a href="../.." class="md-nav__link">Home</a></li>
          <li class="md-nav__item md-nav__item--nested"><input class="md-nav__toggle md-toggle" type="checkbox" id="__nav_2"><label class="md-nav__link" for="__nav_2">Auth <span class="md-nav__icon"></span></label>
            <nav class="md-nav" data-md-level="1"><label class="md-nav__title" for="__nav_2">Auth</label><ul class="md-nav__list">
              <li class="md-nav__item md-nav__item--active"><input class="md-nav__toggle md-toggle" type="checkbox" id="__toc"><label class="md-nav__link md-nav__link--active" for="__toc">Tokens</label><a href="./" class="md-nav__link md-nav__link--active">Tokens</a>
                <nav class="md-nav md-nav--secondary"><ul class="md-nav__list"><li class="md-nav__item"><a href="#scopes" class="md-nav__link">Scopes</a></li></ul></nav></li>
              <li class="md-nav__item"><a href="../keys/" class="md-nav__link">Keys</a></li></ul></nav></li></ul></nav></div>
      <div class="md-content" data-md-component="content"><article class="md-content__inner md-typeset">
        <a href="https://github.com/x/edit/main/docs/auth/tokens.md" title="Edit this page" class="md-content__button md-icon">edit</a>
        <h1 id="tokens">Tokens<a class="headerlink" href="#tokens" title="Permanent link">¶</a></h1><p>A token grants access.</p>
        <h2 id="scopes">Scopes<a class="headerlink" href="#scopes" title="Permanent link">¶</a></h2><p>Read or write.</p>
        <aside class="md-source-file"><span class="md-source-file__fact">Last update: 2024</span></aside></article></div>
      </div></main><footer class="md-footer"><nav class="md-footer__inner" aria-label="Footer"><a href="../.." class="md-footer__link--prev">Home</a></nav></footer></div></body></html>`;
    const page = analyzeHtmlPage(html, 'https://docs.test/auth/tokens/');
    expect(page.generator).toBe('mkdocs-material');
    expect(page.title).toBe('Tokens');
    expect(outline(page.nav)).toEqual([
      ['Home', 'https://docs.test/'],
      [
        'Auth',
        null,
        [
          ['Tokens', 'https://docs.test/auth/tokens/'],
          ['Keys', 'https://docs.test/auth/keys/'],
        ],
      ],
    ]);
    expect(convert(html, 'https://docs.test/auth/tokens/')).toBe('A token grants access.\n\n## Scopes\n\nRead or write.\n');
  });

  it('Sphinx with the Read the Docs theme: the article body, captions and lists of the toctree, no breadcrumbs or pilcrows', () => {
    const html = `<html><head><meta charset="utf-8"><title>Quickstart &mdash; Widgets 2.0 documentation</title>
      <script id="documentation_options" data-url_root="./" src="_static/documentation_options.js"></script></head><body class="wy-body-for-nav">
      <div class="wy-grid-for-nav"><nav data-toggle="wy-nav-shift" class="wy-nav-side"><div class="wy-side-scroll"><div class="wy-menu wy-menu-vertical" role="navigation" aria-label="Navigation menu">
        <p class="caption" role="heading"><span class="caption-text">Start</span></p>
        <ul class="current"><li class="toctree-l1 current"><a class="current reference internal" href="#">Quickstart</a><ul><li class="toctree-l2"><a class="reference internal" href="#install">Install</a></li></ul></li>
          <li class="toctree-l1"><a class="reference internal" href="tutorial.html">Tutorial</a></li></ul>
        <p class="caption" role="heading"><span class="caption-text">Reference</span></p>
        <ul><li class="toctree-l1"><a class="reference internal" href="api/index.html">API</a></li></ul></div></div></nav>
      <section data-toggle="wy-nav-shift" class="wy-nav-content-wrap"><div class="wy-nav-content"><div class="rst-content">
        <div role="navigation" aria-label="Page navigation"><ul class="wy-breadcrumbs"><li><a href="index.html">Home</a> &raquo;</li><li>Quickstart</li></ul><hr/></div>
        <div role="main" class="document" itemscope="itemscope" itemtype="http://schema.org/Article"><div itemprop="articleBody">
          <section id="quickstart"><h1>Quickstart<a class="headerlink" href="#quickstart" title="Permalink to this heading">¶</a></h1>
          <p>Get going in <em>two</em> minutes.</p></section></div></div>
        <footer><div class="rst-footer-buttons" role="navigation"><a href="tutorial.html" class="btn btn-neutral float-right">Next</a></div><hr/><p>&#169; Copyright 2024.</p></footer>
      </div></div></section></div></body></html>`;
    const page = analyzeHtmlPage(html, 'https://widgets.test/en/latest/quickstart.html');
    expect(page.generator).toBe('sphinx');
    expect(page.title).toBe('Quickstart');
    expect(outline(page.nav)).toEqual([
      [
        'Start',
        null,
        [
          ['Quickstart', 'https://widgets.test/en/latest/quickstart.html'],
          ['Tutorial', 'https://widgets.test/en/latest/tutorial.html'],
        ],
      ],
      ['Reference', null, [['API', 'https://widgets.test/en/latest/api/index.html']]],
    ]);
    expect(convert(html, 'https://widgets.test/en/latest/quickstart.html')).toBe('Get going in _two_ minutes.\n');
  });

  it('Docusaurus: the doc markdown without breadcrumbs, hash links, edit link or pagination; the sidebar with categories', () => {
    const html = `<html><head><meta name="generator" content="Docusaurus v3.1.0"><title>Deploy | Acme Docs</title><meta property="og:title" content="Deploy | Acme Docs"><meta name="description" content="Ship it"></head><body>
      <div id="__docusaurus"><nav class="navbar"><a class="navbar__brand" href="/">Acme</a></nav><div class="main-wrapper"><div class="docsWrapper_x"><div class="docRoot_y">
      <aside class="theme-doc-sidebar-container"><nav aria-label="Docs sidebar" class="menu thin-scrollbar"><ul class="theme-doc-sidebar-menu menu__list">
        <li class="theme-doc-sidebar-item-link menu__list-item"><a class="menu__link" href="/docs/intro">Intro</a></li>
        <li class="theme-doc-sidebar-item-category menu__list-item"><div class="menu__list-item-collapsible"><a class="menu__link menu__link--sublist" href="#">Guides</a><button class="clean-btn menu__caret" aria-label="Toggle"></button></div>
          <ul class="menu__list"><li class="menu__list-item"><a class="menu__link menu__link--active" aria-current="page" href="/docs/guides/deploy">Deploy</a></li></ul></li></ul></nav></aside>
      <main class="docMainContainer_z"><div class="container"><div class="row"><div class="col docItemCol_a"><div class="docItemContainer_b"><article>
        <nav class="theme-doc-breadcrumbs" aria-label="Breadcrumbs"><ul class="breadcrumbs"><li class="breadcrumbs__item"><a class="breadcrumbs__link" href="/">Home</a></li></ul></nav>
        <div class="tocCollapsible_c theme-doc-toc-mobile"><button class="clean-btn">On this page</button></div>
        <div class="theme-doc-markdown markdown"><header><h1>Deploy</h1></header><p>Push to <code>main</code>.</p>
          <h2 class="anchor anchorWithStickyNavbar_d" id="rollback">Rollback<a href="#rollback" class="hash-link" aria-label="Direct link to Rollback" title="Direct link to Rollback">&#8203;</a></h2><p>Revert the commit.</p></div>
        <footer class="theme-doc-footer docusaurus-mt-lg"><div class="theme-doc-footer-edit-meta-row row"><a href="https://github.com/acme/docs/edit/main/docs/guides/deploy.md" class="theme-edit-this-page">Edit this page</a></div></footer></article>
        <nav class="pagination-nav docusaurus-mt-lg" aria-label="Docs pages"><a class="pagination-nav__link pagination-nav__link--prev" href="/docs/intro"><div class="pagination-nav__label">Intro</div></a></nav>
      </div></div></div></div></main></div></div></div></div></body></html>`;
    const page = analyzeHtmlPage(html, 'https://acme.test/docs/guides/deploy');
    expect(page).toMatchObject({ generator: 'docusaurus', title: 'Deploy', description: 'Ship it', links: [] });
    expect(outline(page.nav)).toEqual([
      ['Intro', 'https://acme.test/docs/intro'],
      ['Guides', null, [['Deploy', 'https://acme.test/docs/guides/deploy']]],
    ]);
    expect(convert(html, 'https://acme.test/docs/guides/deploy')).toBe('Push to `main`.\n\n## Rollback\n\nRevert the commit.\n');
  });

  it('GitBook sites: the page in main without its header, footer and side table of contents', () => {
    const html = `<html><head><meta name="generator" content="GitBook (a1b2c3d)"><title>Webhooks | Acme API</title><meta property="og:description" content="Receive events"></head><body>
      <header><a href="/">Acme API</a></header><div class="flex"><aside><nav><div data-testid="table-of-contents"><ul>
        <li><a href="/docs">Overview</a></li><li><a href="/docs/webhooks">Webhooks</a><ul><li><a href="/docs/webhooks/retries">Retries</a></li></ul></li></ul></div></nav></aside>
      <main><header><nav aria-label="Breadcrumb"><a href="/docs">Overview</a></nav><h1>Webhooks</h1><p>Receive events</p></header>
        <div class="whitespace-pre-wrap"><p>We POST each event to your URL.</p></div>
        <div class="page-footer"><p>Last updated 2 days ago</p></div>
        <footer><a href="/docs" class="pagination">Previous Overview</a></footer></main></div></body></html>`;
    const page = analyzeHtmlPage(html, 'https://acme.test/docs/webhooks');
    expect(page).toMatchObject({ generator: 'gitbook', title: 'Webhooks', description: 'Receive events' });
    expect(outline(page.nav)).toEqual([
      ['Overview', 'https://acme.test/docs'],
      ['Webhooks', 'https://acme.test/docs/webhooks', [['Retries', 'https://acme.test/docs/webhooks/retries']]],
    ]);
    expect(convert(html, 'https://acme.test/docs/webhooks')).toContain('We POST each event to your URL.');
    expect(convert(html, 'https://acme.test/docs/webhooks')).not.toContain('Breadcrumb');
  });

  it('any other site: the densest block of prose wins over link-heavy sidebars, with a warning', () => {
    const sidebar = Array.from({ length: 30 }, (_, i) => `<li><a href="/p${i}">Page number ${i} of the site, a long link title</a></li>`).join('');
    const html = `<html><head><title>Caching explained - Blog</title></head><body><div class="top"><a href="/">Blog</a></div>
      <div class="left"><ul>${sidebar}</ul></div>
      <div class="post"><div class="entry"><h1>Caching explained</h1>
        <p>A cache keeps the results of expensive work, so that the next request for the same thing is fast.</p>
        <p>Invalidation is the hard part: when the source changes, every copy must be dropped, or readers see stale data.</p>
        <p>Time-to-live values bound how stale a copy can get, at the cost of recomputing now and then.</p></div></div>
      <div class="bottom">© 2024 Blog · <a href="/about">About</a></div></body></html>`;
    const page = analyzeHtmlPage(html, 'https://blog.test/caching');
    expect(page.generator).toBe('heuristic');
    expect(page.title).toBe('Caching explained');
    const result = convertHtmlPage(html, { pageUrl: 'https://blog.test/caching', linkTargets: {}, assetTargets: {} });
    expect(result.markdown).toMatch(/^A cache keeps the results/);
    expect(result.markdown).toContain('Time-to-live values');
    expect(result.markdown).not.toContain('Page number');
    expect(result.markdown).not.toContain('About');
    expect(result.warnings.map((w) => w.code)).toEqual(['webimport.generator_unrecognised']);
  });
});
