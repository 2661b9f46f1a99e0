// Puppeteer must never download a browser: taskloom launches the system Chromium
// (BROWSER_EXECUTABLE_PATH or detected on the PATH), and this machine has no internet.
module.exports = { skipDownload: true };
