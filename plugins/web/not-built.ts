const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** What `/` answers when web/dist is missing: start-up does not fail, the page says what to do. */
export function notBuiltPage(distDir: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>taskloom: dashboard not built</title></head>
<body>
<main>
<h1>The dashboard is not built</h1>
<p>The dashboard is not built: run <code>npm run build:web</code>, then restart the service.</p>
<p>Expected the built files in <code>${escape(distDir)}</code>.</p>
<p>The REST API works without it: see <a href="/api/docs">/api/docs</a>.</p>
</main>
</body>
</html>
`;
}
