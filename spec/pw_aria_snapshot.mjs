// Prints, as one JSON array, Playwright's own aria snapshot of the body of
// each page in the cases file given as argv[2] ([[name, html, yaml], ...]).
// Run from a folder where @playwright/test is installed; the browser is
// the one at CHROMIUM_PATH.
import { chromium } from 'playwright-core';
import fs from 'fs';

const cases = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage();
  const out = [];
  for (const [, html] of cases) {
    await page.setContent('<!doctype html><meta charset=utf-8><body>' + html + '</body>');
    out.push(await page.locator('body').ariaSnapshot());
  }
  process.stdout.write(JSON.stringify(out));
} finally {
  await browser.close();
}
