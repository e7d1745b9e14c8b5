import { chromium } from '@playwright/test';
const [,, url, out, w, h, actions] = process.argv;
const b = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox','--disable-gpu'] });
const p = await b.newPage({ viewport: { width: +w, height: +h } });
await p.goto(url); await p.waitForTimeout(1500);
if (actions) { const f = (await import(actions)).default; await f(p); }
await p.screenshot({ path: out });
await b.close();
