// A small site with a login form, for the browser-state tests: logging in sets an HttpOnly session cookie and puts
// a token in local storage; /account says whether both are there. Its secrets are fresh random values per site, so a
// test can look for them anywhere they must not be (answers, logs, stored files).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LoginSite {
  origin: string;
  /** The session cookie's value and the local-storage token a login hands out. */
  secrets: { cookie: string; token: string };
  close(): Promise<void>;
}

const page = (title: string, body: string) => `<!doctype html><html><head><title>${title}</title></head><body>${body}</body></html>`;

export async function startLoginSite(): Promise<LoginSite> {
  const secrets = { cookie: `SID-${randomBytes(12).toString('hex')}`, token: `TOK-${randomBytes(12).toString('hex')}` };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const html = (body: string, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'content-type': 'text/html', ...headers });
      res.end(body);
    };
    if (url.pathname === '/login' && req.method === 'POST') {
      let form = '';
      req.on('data', (chunk: Buffer) => { form += chunk.toString(); });
      req.on('end', () => {
        const fields = new URLSearchParams(form);
        if (fields.get('user') !== 'ada' || fields.get('password') !== 'lovelace') return html(page('Login failed', '<p id="status">wrong password</p>'));
        html(page('Welcome', `<p id="status">welcome</p><script>localStorage.setItem('token', ${JSON.stringify(secrets.token)});
          location.href = '/account';</script>`), { 'set-cookie': `sid=${secrets.cookie}; Path=/; HttpOnly; Max-Age=3600` });
      });
      return;
    }
    // Signs in as the page loads (a single sign-on page, say): what a person in a studio session ends up with.
    if (url.pathname === '/auto-login') {
      return html(page('Signed in', `<p id="status">welcome</p><script>localStorage.setItem('token', ${JSON.stringify(secrets.token)});</script>`),
        { 'set-cookie': `sid=${secrets.cookie}; Path=/; HttpOnly; Max-Age=3600` });
    }
    if (url.pathname === '/login') {
      return html(page('Login', '<form method="post" action="/login"><input id="user" name="user"><input id="password" name="password" type="password"><button id="submit">Sign in</button></form>'));
    }
    if (url.pathname === '/account') {
      const cookieOk = (req.headers.cookie ?? '').split(/;\s*/).includes(`sid=${secrets.cookie}`);
      // The cookie is checked by the server, the token by the page: both must have come through.
      return html(page('Account', `<p id="status">${cookieOk ? 'logged in as ada' : 'logged out'}</p><p id="token"></p>
        <script>document.getElementById('token').textContent = localStorage.getItem('token') === ${JSON.stringify(secrets.token)} ? 'token ok' : 'no token';</script>`));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    secrets,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
