import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { DevToolsPipe } from '../../../providers/browser/shared/devtools-pipe.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('DevTools pipe framing', () => {
  it('writes each message as JSON text ended by NUL', () => {
    const toBrowser = new PassThrough();
    const pipe = new DevToolsPipe(toBrowser, new PassThrough(), 'object');
    pipe.send({ id: 1, method: 'Browser.getVersion' });
    const text = new DevToolsPipe<string>(toBrowser, new PassThrough(), 'text');
    text.send('{"id":2}');
    assert.equal(toBrowser.read().toString(), '{"id":1,"method":"Browser.getVersion"}\0{"id":2}\0');
  });

  it('delivers messages split across chunks and several in one chunk, in order', async () => {
    const fromBrowser = new PassThrough();
    const pipe = new DevToolsPipe(new PassThrough(), fromBrowser, 'object');
    const got: object[] = [];
    pipe.onmessage = (message) => got.push(message);
    fromBrowser.write(Buffer.from('{"id":1,"res'));
    fromBrowser.write(Buffer.from('ult":{"é":"ü"}}\0{"id":2}\0{"method":"Target.x"'));
    fromBrowser.write(Buffer.from('}\0'));
    await tick();
    await tick();
    assert.deepEqual(got, [{ id: 1, result: { é: 'ü' } }, { id: 2 }, { method: 'Target.x' }]);
  });

  it('hands text to a text consumer unparsed', async () => {
    const fromBrowser = new PassThrough();
    const pipe = new DevToolsPipe<string>(new PassThrough(), fromBrowser, 'text');
    const got: string[] = [];
    pipe.onmessage = (message) => got.push(message);
    fromBrowser.write('{"id":7}\0');
    await tick();
    await tick();
    assert.deepEqual(got, ['{"id":7}']);
  });

  it('reports the browser closing its end, also to a listener set afterwards, and refuses to send then', async () => {
    const fromBrowser = new PassThrough();
    const pipe = new DevToolsPipe(new PassThrough(), fromBrowser, 'object');
    let early = 0;
    pipe.onclose = () => early++;
    fromBrowser.destroy();
    await tick();
    assert.equal(early, 1);
    let late = 0;
    pipe.onclose = () => late++;
    assert.equal(late, 1);
    assert.throws(() => pipe.send({ id: 3 }), /closed its DevTools pipe/);
  });
});
