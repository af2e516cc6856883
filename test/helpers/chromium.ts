/**
 * Debian's chromium for the browser tests of published sites, through puppeteer-core, with the flags this machine
 * needs (no sandbox as root, no background networking to hosts the closed network refuses) and a fresh profile.
 */
import puppeteer, { type Browser } from 'puppeteer-core';

export function launchTestChromium(profileDir: string): Promise<Browser> {
  return puppeteer.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profileDir}`,
    ],
  });
}
