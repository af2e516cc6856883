/** The user agent of Folio's website import: sent with every request, and the name robots.txt rules are read for. */
export const WEBIMPORT_USER_AGENT = 'FolioImporter/1.0 (+https://github.com/folio-docs/folio; website import)';

/** The product token robots.txt groups are matched against. */
export const WEBIMPORT_ROBOTS_AGENT = 'FolioImporter';
