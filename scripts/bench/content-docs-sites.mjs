// @ts-check
// The sites of content-docs.mjs: Debian documentation packages, where each keeps its pages, and the
// block its generator declares as the main content (the truth). `furniture` is what the generator
// puts inside that block that is not what the page says: permalink icons (¶, #, §), "source" links,
// collapse toggles. Selectors are tried in order; the first that matches is the main block.

/**
 * @typedef {object} Site
 * @property {string} name
 * @property {{ pkg: string, dir: string }[]} packages
 * @property {readonly string[]} main
 * @property {string} [furniture]
 * @property {RegExp} [skip] pages left out (by path): generated sources, search pages
 */

/** @type {readonly Site[]} */
export const SITES = [
  {
    name: 'sphinx (sphinx-doc)',
    packages: [{ pkg: 'sphinx-doc', dir: 'usr/share/doc/sphinx-doc/html' }],
    main: ['div[role=main]', 'div.body'],
    furniture: 'a.headerlink',
    skip: /\/(?:_modules|_static|_sources)\/|\/(?:search|genindex)\.html$/,
  },
  {
    name: 'sphinx (python3.11-doc)',
    packages: [{ pkg: 'python3.11-doc', dir: 'usr/share/doc/python3.11/html' }],
    main: ['div[role=main]', 'div.body'],
    furniture: 'a.headerlink',
    skip: /\/(?:_static|_sources)\/|\/(?:search|genindex[-\w]*)\.html$/,
  },
  {
    name: 'pydata-sphinx (python-pandas-doc)',
    packages: [{ pkg: 'python-pandas-doc', dir: 'usr/share/doc/python-pandas-doc/html' }],
    main: ['main[role=main]', 'main', 'div[role=main]'],
    furniture: 'a.headerlink, .prev-next-area',
    skip: /\/(?:_modules|_static|_sources|_panels_static)\/|\/(?:search|genindex)\.html$/,
  },
  {
    name: 'node (nodejs-doc)',
    packages: [{ pkg: 'nodejs-doc', dir: 'usr/share/doc/nodejs/api' }],
    main: ['#apicontent'],
    furniture: 'a.mark, a.srclink',
    skip: /\/all\.html$/,
  },
  {
    name: 'rustdoc (rust-doc std)',
    packages: [{ pkg: 'rust-doc', dir: 'usr/share/doc/rust-doc/html/std' }],
    main: ['#main-content'],
    furniture: 'a.anchor, a.srclink, .out-of-band, .rightside, #copy-path',
  },
  {
    name: 'mdBook (rust-doc books)',
    packages: [
      { pkg: 'rust-doc', dir: 'usr/share/doc/rust-doc/html/book' },
      { pkg: 'rust-doc', dir: 'usr/share/doc/rust-doc/html/reference' },
      { pkg: 'rust-doc', dir: 'usr/share/doc/rust-doc/html/nomicon' },
      { pkg: 'rust-doc', dir: 'usr/share/doc/rust-doc/html/rust-by-example' },
    ],
    main: ['main'],
    skip: /\/print\.html$|\/(?:toc|404)\.html$/,
  },
  {
    name: 'javadoc (groovy-doc)',
    packages: [{ pkg: 'groovy-doc', dir: 'usr/share/doc/groovy/api' }],
    main: ['main'],
  },
  {
    name: 'doxygen (libstdc++-12-doc)',
    packages: [{ pkg: 'libstdc++-12-doc', dir: 'usr/share/doc/gcc-12-base/libstdc++/user' }],
    main: ['div.header .title, div.contents'],
    skip: /_source\.html$/,
  },
  {
    name: 'texinfo (bash-doc, gnu-standards)',
    packages: [
      { pkg: 'bash-doc', dir: 'usr/share/doc/bash' },
      { pkg: 'gnu-standards', dir: 'usr/share/doc/gnu-standards' },
    ],
    main: ['body'],
    furniture: 'div.header, div.nav-panel, a.copiable-anchor',
    skip: /\/examples\//,
  },
  {
    name: 'asciidoc (git-doc)',
    packages: [{ pkg: 'git-doc', dir: 'usr/share/doc/git-doc' }],
    main: ['#content'],
    skip: /\/RelNotes\//,
  },
  {
    name: 'docbook (postgresql-doc-15)',
    packages: [{ pkg: 'postgresql-doc-15', dir: 'usr/share/doc/postgresql-doc-15/html' }],
    main: ['body'],
    furniture: 'div.navheader, div.navfooter',
  },
];
