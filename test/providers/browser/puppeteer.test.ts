import { browserContract } from '../../../testing/browser.contract.js';
import { createPuppeteerDriver } from '../../../providers/browser/puppeteer/index.js';

browserContract('puppeteer', () => createPuppeteerDriver());
