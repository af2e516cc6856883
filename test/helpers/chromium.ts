/**
 * Debian's chromium for the browser tests of published sites, through puppeteer-core, with the flags this machine
 * needs (no sandbox as root, no background networking to hosts the closed network refuses) and a fresh profile.
 */
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '../../src/pdf/browser.js';

/** The PDF printer's flags, less its host-resolver rule (the tests browse a site served on loopback). */
export function launchTestChromium(profileDir: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS.filter((a) => !a.startsWith('--host-resolver-rules')), `--user-data-dir=${profileDir}`],
  });
}
