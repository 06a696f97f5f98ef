// @ts-check
// The held-out sites of content-docs.mjs (`--held-out`): Debian documentation packages none of the
// main-content rules was tuned on (other projects, and generators the bench does not hold: MkDocs,
// gtk-doc, Javadoc 17, Publican's DocBook, Django's Sphinx theme), measured once the rules were done
// and never tuned on. As in content-docs-sites.mjs, the truth is the block each generator declares
// as the main content, without clear furniture (permalink anchors, navigation bars).

/** @type {readonly import('./content-docs-sites.mjs').Site[]} */
export const HELD_OUT_SITES = [
  {
    name: 'mkdocs (mkdocs-doc)',
    packages: [{ pkg: 'mkdocs-doc', dir: 'usr/share/doc/mkdocs/html' }],
    main: ['div[role=main]'],
    furniture: 'a.headerlink',
    skip: /\/(?:404|search)\.html$/,
  },
  {
    name: 'sphinx (cmake-doc)',
    packages: [{ pkg: 'cmake-doc', dir: 'usr/share/doc/cmake-data/html' }],
    main: ['div[role=main]', 'div.body'],
    furniture: 'a.headerlink',
    skip: /\/(?:_static|_sources)\/|\/(?:search|genindex)\.html$/,
  },
  {
    name: 'sphinx, Django theme (python-django-doc)',
    packages: [{ pkg: 'python-django-doc', dir: 'usr/share/doc/python-django-doc/html' }],
    main: ['#yui-main'],
    furniture: 'a.headerlink',
    skip: /\/(?:_static|_sources|_modules)\/|\/(?:search|genindex)\.html$/,
  },
  {
    name: 'javadoc 17 (libcommons-lang3-java-doc)',
    packages: [{ pkg: 'libcommons-lang3-java-doc', dir: 'usr/share/doc/libcommons-lang3-java/api' }],
    main: ['main'],
    skip: /\/src-html\//,
  },
  {
    name: 'gtk-doc (libglib2.0-doc, gnutls-doc, libidn2-doc)',
    packages: [
      { pkg: 'libglib2.0-doc', dir: 'usr/share/gtk-doc/html/glib' },
      { pkg: 'gnutls-doc', dir: 'usr/share/doc/gnutls-doc/api-reference' },
      { pkg: 'libidn2-doc', dir: 'usr/share/doc/libidn2-doc/gtk-doc' },
    ],
    main: ['body'],
    furniture: 'table.navigation, div.footer',
  },
  {
    name: 'docbook, Publican (debian-handbook en-US)',
    packages: [{ pkg: 'debian-handbook', dir: 'usr/share/doc/debian-handbook/html/en-US' }],
    main: ['body'],
    furniture: '#banner, ul.docnav',
  },
  {
    name: 'texinfo (gnutls-doc)',
    packages: [{ pkg: 'gnutls-doc', dir: 'usr/share/doc/gnutls-doc/html' }],
    main: ['body'],
    furniture: 'div.header, div.nav-panel, a.copiable-anchor',
  },
];
