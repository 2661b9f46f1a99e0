/** HTML text: `&`, `<`, `>`, quotes escaped. */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
  body { font: 15px system-ui, sans-serif; margin: 0; background: #f4f4f5; color: #18181b; }
  header { display: flex; gap: 16px; align-items: center; padding: 12px 16px; background: #fff; border-bottom: 1px solid #e4e4e7; }
  header p { margin: 0; flex: 1; }
  button { font: inherit; padding: 8px 18px; border: 0; border-radius: 6px; background: #2563eb; color: #fff; cursor: pointer; }
  button:disabled { background: #a1a1aa; cursor: default; }
  main { padding: 16px; }
  #screen { display: block; max-width: 100%; border: 1px solid #d4d4d8; background: #fff; outline: none; cursor: default; }
  #state { color: #52525b; font-size: 13px; }
`;

export interface HandoffPageInput {
  executionId: string;
  nonce: string;
  message: string;
  expiresAt: string;
  /** The run's browser offers no DevTools session (headful): the noVNC view is the way in. */
  headful: boolean;
  /** Answered to the link itself: the page takes the token out of the address bar (and so out of the history). */
  fromLink: boolean;
}

/**
 * The handoff page: the run's live page (JPEG frames over the WebSocket), the person's mouse and keys sent back
 * (the DevTools Input domain drives the page: no window focus or display needed), and Resume.
 */
export function handoffPage(input: HandoffPageInput): string {
  const base = `/api/studio/handoff/${encodeURIComponent(input.executionId)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>A run waits for you</title><style>${STYLE}</style></head>
<body>
<header>
  <p><strong>The run waits for you.</strong> <span id="message">${escape(input.message)}</span><br>
  <span id="state">Until ${escape(input.expiresAt)}. Click the page below, then type and click as in a browser; press Resume when done.</span></p>
  <button id="resume" type="button">Resume</button>
</header>
<main>
  ${input.headful ? '<p>This run has a browser window: use the noVNC view of the headful session (dashboard, Settings → Headful) to act, then press Resume here.</p>' : ''}
  <img id="screen" alt="The run's page" tabindex="0">
</main>
<script nonce="${input.nonce}">
(() => {
  ${input.fromLink ? `history.replaceState(null, '', ${JSON.stringify(base)});` : ''}
  const screen = document.getElementById('screen');
  const state = document.getElementById('state');
  const resume = document.getElementById('resume');
  const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + ${JSON.stringify(`${base}/live`)});
  let size = { width: 1, height: 1 };
  let url;
  const send = (message) => { if (ws.readyState === 1) ws.send(JSON.stringify(message)); };
  ws.onmessage = (event) => {
    if (typeof event.data !== 'string') {
      if (url) URL.revokeObjectURL(url);
      url = URL.createObjectURL(event.data);
      screen.src = url;
      return;
    }
    const message = JSON.parse(event.data);
    if (message.type === 'viewport') size = { width: message.width, height: message.height };
    if (message.type === 'end') state.textContent = 'The run ended (' + message.status + '). You may close this page.';
    if (message.type === 'handoff-over') state.textContent = 'The handoff is over (the run was resumed, or its wait expired). You may close this page.';
    if (message.type === 'unavailable') state.textContent = message.reason;
  };
  ws.onclose = () => { resume.dataset.closed = 'true'; };
  const at = (event) => {
    const box = screen.getBoundingClientRect();
    return { x: (event.clientX - box.left) * size.width / box.width, y: (event.clientY - box.top) * size.height / box.height };
  };
  screen.addEventListener('mousedown', (event) => { event.preventDefault(); screen.focus(); send({ type: 'mouse', action: 'down', ...at(event) }); });
  screen.addEventListener('mouseup', (event) => send({ type: 'mouse', action: 'up', ...at(event) }));
  screen.addEventListener('mousemove', (event) => send({ type: 'mouse', action: 'move', ...at(event) }));
  screen.addEventListener('wheel', (event) => { event.preventDefault(); send({ type: 'mouse', action: 'wheel', ...at(event), deltaX: event.deltaX, deltaY: event.deltaY }); }, { passive: false });
  screen.addEventListener('keydown', (event) => {
    event.preventDefault();
    send({ type: 'key', key: event.key, code: event.code, modifiers: { alt: event.altKey, ctrl: event.ctrlKey, meta: event.metaKey, shift: event.shiftKey } });
  });
  resume.addEventListener('click', async () => {
    resume.disabled = true;
    const answer = await fetch(${JSON.stringify(`${base}/resume`)}, { method: 'POST', credentials: 'same-origin' });
    state.textContent = answer.ok ? 'Resumed: the run goes on. You may close this page.' : 'This handoff is over (resumed already, or expired).';
    resume.dataset.done = answer.ok ? 'resumed' : 'refused';
  });
})();
</script>
</body></html>`;
}
