// One small shop page in many variants of the same content, for the healing suite: ids, test ids and classes renamed,
// targets wrapped, sections moved, texts reworded, decoys with the targets' texts added, one target removed. Every
// element a test aims at carries `data-truth` (an attribute the fingerprint ignores), so a repair can be checked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const MUTATIONS = ['ids', 'testids', 'classes', 'wrap', 'move', 'reword', 'decoy'] as const;
/**
 * The suite's mutations, and `twin`: a second cart link beside the first, alike in all but its id (none), so no
 * fingerprint can tell which of the two was meant (the runs test's page where only a provider can decide; not in
 * the suite's variants).
 */
export type Mutation = (typeof MUTATIONS)[number] | 'twin';
export const TARGETS = ['email', 'signin', 'add-mug', 'checkout', 'cart'] as const;
export type Target = (typeof TARGETS)[number];

export interface Variant {
  name: string;
  mutations: Mutation[];
  /** The target left out of the page. */
  removed?: Target;
}

/** The selectors a task recorded on the original page. */
export const ORIGINAL_SELECTORS: Record<Target, string> = {
  email: '#email',
  signin: '#login-btn',
  'add-mug': '[data-testid="add-blue-mug"]',
  checkout: '#checkout',
  cart: '#cart-link',
};

export function renderVariant(variant: Variant): string {
  const has = (m: Mutation) => variant.mutations.includes(m);
  const id = (original: string, renamed: string) => `id="${has('ids') ? renamed : original}"`;
  const cls = (original: string) => `class="${has('classes') ? original.split(' ').map((c) => `sc-${hash(c)}`).join(' ') : original}"`;
  const testid = (value: string) => (has('testids') ? `data-qa="${value.replace('add-', 'cart-add-')}"` : `data-testid="${value}"`);
  const say = (original: string, reworded: string) => (has('reword') ? reworded : original);
  const wrap = (html: string) => (has('wrap') ? `<div ${cls('wrapper')}><span ${cls('inner')}>${html}</span></div>` : html);
  const keep = (target: Target, html: string) => (variant.removed === target ? '' : wrap(html));

  const nav = `<header ${cls('site-header')}><nav ${cls('nav')}>
    <a ${cls('nav-link')} href="/">Home</a><a ${cls('nav-link')} href="/shop">Shop</a>
    ${keep('cart', `<a ${id('cart-link', 'nav-basket')} ${cls('nav-link')} href="/cart" data-truth="cart">${say('Cart', 'Basket')}</a>`)}
    ${has('twin') ? `<a ${cls('nav-link')} href="/cart">${say('Cart', 'Basket')}</a>` : ''}
    ${has('decoy') ? `<a ${cls('nav-link')} href="/login">Sign in</a>` : ''}
  </nav></header>`;
  const login = `<section ${cls('login')}><h2>${say('Sign in to your account', 'Log in to your account')}</h2>
    <form ${id('login-form', 'auth-form')}>
      <label for="${has('ids') ? 'user-mail' : 'email'}">${say('Email', 'Email address')}</label>
      ${keep('email', `<input ${id('email', 'user-mail')} name="${has('ids') ? 'user_mail' : 'email'}" type="email" placeholder="you@example.com" data-truth="email">`)}
      <label for="${has('ids') ? 'user-pass' : 'password'}">Password</label>
      <input ${id('password', 'user-pass')} name="password" type="password">
      ${keep('signin', `<button ${id('login-btn', 'submit-auth')} ${cls('btn btn-primary')} type="submit" data-truth="signin">${say('Sign in', 'Log in')}</button>`)}
    </form></section>`;
  const card = (name: string, price: string, value: string, truth?: Target) => {
    const button = `<button ${cls('btn add')} ${testid(value)}${truth ? ` data-truth="${truth}"` : ''}>${say('Add to cart', 'Add to basket')}</button>`;
    return `<div ${cls('card')}><h3>${name}</h3><p ${cls('price')}>${price}</p>${truth ? keep(truth, button) : wrap(button)}</div>`;
  };
  const cards = [card('Blue mug', '$12', 'add-blue-mug', 'add-mug'), card('Red lamp', '$30', 'add-red-lamp'), card('Green chair', '$85', 'add-green-chair')];
  const products = `<section ${cls('products')}><h2>Products</h2>${(has('move') ? cards.reverse() : cards).join('\n')}</section>`;
  const checkout = keep('checkout', `<a ${id('checkout', 'to-checkout')} ${cls('btn checkout')} href="/checkout" data-truth="checkout">${say('Proceed to checkout', 'Continue to checkout')}</a>`);
  const footer = `<footer ${cls('site-footer')}><a href="/terms">Terms</a> <a href="/contact">Contact us</a>
    ${has('decoy') ? '<a href="/checkout">Proceed to checkout</a> <button type="button">Add to cart</button>' : ''}</footer>`;
  const main = has('move')
    ? `<main>${products}<aside>${checkout}</aside>${login}</main>`
    : `<main>${login}${products}${checkout}</main>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>Shop</title>
<style>body{font:14px sans-serif} .card,[class^=sc-]{display:block;margin:4px;padding:4px} footer{margin-top:40px}</style></head>
<body>${nav}${main}${footer}
<script>document.addEventListener('click', (e) => { const t = e.target.closest('[data-truth]');
document.body.setAttribute('data-clicked', t ? t.getAttribute('data-truth') : 'other'); });</script></body></html>`;
}

function hash(text: string): string {
  let h = 7;
  for (const ch of text) h = (h * 31 + ch.charCodeAt(0)) % 1_000_003;
  return h.toString(36);
}

/** Every subset of the mutations that renames ids or test ids (so recorded selectors break), plus removals. */
export function allVariants(): Variant[] {
  const others = MUTATIONS.filter((m) => m !== 'ids' && m !== 'testids');
  const out: Variant[] = [];
  for (const renames of [['ids'], ['testids'], ['ids', 'testids']] as Mutation[][]) {
    for (let mask = 0; mask < 1 << others.length; mask++) {
      const mutations = [...renames, ...others.filter((_, i) => mask & (1 << i))];
      out.push({ name: mutations.join('+'), mutations });
    }
  }
  for (const removed of TARGETS) {
    for (const mutations of [['ids', 'testids'], ['ids', 'testids', 'decoy'], ['ids', 'testids', 'classes', 'wrap', 'move']] as Mutation[][]) {
      out.push({ name: `${mutations.join('+')} without ${removed}`, mutations, removed });
    }
  }
  return out;
}

export interface VariantServer {
  origin: string;
  /** What `/current` serves from now on (the original page at first). */
  show(variant: Variant): void;
  /** What `/current` serves from now on: this page as it is. */
  showHtml(html: string): void;
  close(): Promise<void>;
}

const ORIGINAL: Variant = { name: 'original', mutations: [] };

/** Serves `/original`, `/v/<n>` (the variants by index) and `/current` (the one shown). */
export async function serveVariants(variants: readonly Variant[] = []): Promise<VariantServer> {
  let shown: Variant | string = ORIGINAL;
  const server = http.createServer((req, res) => {
    const path = req.url ?? '/';
    const match = /^\/v\/(\d+)$/.exec(path);
    const variant = path === '/original' ? ORIGINAL : path === '/current' ? shown : match ? variants[Number(match[1])] : undefined;
    if (!variant) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(typeof variant === 'string' ? variant : renderVariant(variant));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    show: (variant) => { shown = variant; },
    showHtml: (html) => { shown = html; },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
