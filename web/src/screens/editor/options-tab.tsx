import { useState } from 'preact/hooks';
import { get, post } from '../../api/client';
import type { Credential, ProxySettings, Task } from '../../api/types';
import { BrowserStatePicker } from '../../components/browser-state-picker';
import { TablePicker } from '../../components/table-picker';
import { Button, CheckField, ErrorBox, Field, SelectField, TextField } from '../../components/ui';
import { useAction, useAsync } from '../../lib/use-async';
import { ExtractEditor, extractOf } from './extract-editor';

const num = (text: string) => (text === '' ? undefined : Math.max(1, Math.round(Number(text))) || undefined);

/** Extraction script (with the AI generator), run options and where the rows go. */
export function OptionsTab(props: { task: Task; onChange: (patch: Partial<Task>) => void }) {
  const { task } = props;
  const [prompt, setPrompt] = useState('');
  const generate = useAction();
  const proxies = useAsync(() => get<ProxySettings>('/api/settings/proxies'), []);
  const credentials = useAsync(() => get<Credential[]>('/api/credentials'), []);

  const runGenerate = async (event: Event) => {
    event.preventDefault();
    const answer = await generate.run(() => post<{ script: string }>('/api/tasks/generate-script', { description: prompt }));
    if (answer) props.onChange({ extractionScript: answer.script });
  };

  return (
    <div class="options">
      <ExtractEditor task={task} onChange={props.onChange} />
      {!extractOf(task) && task.mode !== 'http' && <section aria-labelledby="script-title">
        <h2 id="script-title">Extraction script</h2>
        <Field label="Script" hint="A JavaScript function body run in the page after the actions; what it returns becomes the run's data.">
          {(id, described) => (
            <textarea id={id} aria-describedby={described} class="code" rows={8} spellcheck={false} value={task.extractionScript ?? ''}
              onInput={(e) => props.onChange({ extractionScript: (e.currentTarget as HTMLTextAreaElement).value || undefined })} />
          )}
        </Field>
        <form class="inline-form" onSubmit={runGenerate}>
          <TextField label="Generate with AI from a description" value={prompt} onValue={setPrompt} placeholder="the titles and prices of every product card" />
          <button type="submit" class="btn" disabled={generate.busy || !prompt.trim()} aria-busy={generate.busy || undefined}>
            {generate.busy ? 'Generating…' : 'Generate'}
          </button>
        </form>
        <ErrorBox error={generate.error} what="The script generator" />
      </section>}

      <section aria-labelledby="run-options-title">
        <h2 id="run-options-title">Run options</h2>
        <div class="grid-3">
          <TextField label="Timeout (ms)" type="number" min={1} value={task.timeoutMs ?? ''} placeholder="120000" onValue={(v) => props.onChange({ timeoutMs: num(v) })} />
          <TextField label="Viewport width" type="number" min={1} value={task.viewport?.width ?? ''} placeholder="1280"
            onValue={(v) => props.onChange({ viewport: num(v) ? { width: num(v)!, height: task.viewport?.height ?? 800 } : undefined })} />
          <TextField label="Viewport height" type="number" min={1} value={task.viewport?.height ?? ''} placeholder="800"
            onValue={(v) => props.onChange({ viewport: num(v) ? { width: task.viewport?.width ?? 1280, height: num(v)! } : undefined })} />
        </div>
        <TextField label="User agent" value={task.userAgent ?? ''} onValue={(v) => props.onChange({ userAgent: v || undefined })} placeholder="the browser's own" />
        <CheckField label="Record a video of the run" checked={task.record === true} onChecked={(on) => props.onChange({ record: on || undefined })} />
        <CheckField label="Take a screenshot when a run fails" checked={task.screenshotOnFailure !== false}
          onChecked={(on) => props.onChange({ screenshotOnFailure: on ? undefined : false })} />
        <CheckField label="Record a Playwright trace of every run (Playwright engine only)" checked={task.trace === true}
          onChecked={(on) => props.onChange({ trace: on || undefined })} />
        <SelectField label="When a selector matches nothing (healing)" value={typeof task.healing === 'string' ? task.healing : 'propose'}
          hint="propose: repair the run and propose the new selector for review (Repairs tab); apply: save it as a new version at once; off: fail"
          onValue={(v) => props.onChange({ healing: v === 'propose' ? undefined : v as Task['healing'] })}
          options={[['propose', 'Repair and propose (default)'], ['apply', 'Repair and save a version'], ['off', 'Fail (no healing)']]} />
        <CheckField label="Check before each action that its element is still the one it was (healing)" checked={task.healingCheck === true}
          onChecked={(on) => props.onChange({ healingCheck: on || undefined })} />
        <BrowserStatePicker label="Start from browser state" none="None (the shared cookie jar)" value={typeof task.browserState === 'string' ? task.browserState : ''}
          hint="Runs start logged in with this saved login (Browser states view); a run may choose another"
          onValue={(v) => props.onChange({ browserState: v || undefined })} />
        <TextField label="Save browser state as" value={typeof task.saveBrowserState === 'string' ? task.saveBrowserState : ''} maxLength={64}
          hint="A run that succeeds saves its cookies and local storage under this name" placeholder="not saved"
          onValue={(v) => props.onChange({ saveBrowserState: v || undefined })} />
        <CheckField label="Rotate proxies" checked={task.rotateProxies === true} onChecked={(on) => props.onChange({ rotateProxies: on || undefined })} />
        <SelectField label="Proxy" value={task.proxyId ?? ''} onValue={(v) => props.onChange({ proxyId: v || undefined })}
          options={[['', 'Default (from Settings)'], ...(proxies.data?.proxies ?? []).map((p): [string, string] => [p.id, p.label ? `${p.label} (${p.server})` : p.server])]} />
        <ErrorBox error={proxies.error} />
      </section>

      <section aria-labelledby="output-title">
        <h2 id="output-title">Output</h2>
        <p class="hint">Push the rows of each run's data to a tablestore table.</p>
        <SelectField label="Credential" value={task.output?.credentialId ?? ''}
          onValue={(credentialId) => props.onChange({ output: credentialId ? { credentialId, tableId: task.output?.tableId ?? '', onError: task.output?.onError } : undefined })}
          options={[['', 'No output'], ...(credentials.data ?? []).map((c): [string, string] => [c.id, `${c.name} (${c.config.baseUrl})`])]} />
        <ErrorBox error={credentials.error} />
        {task.output?.credentialId && (
          <>
            <TablePicker credentialId={task.output.credentialId} tableId={task.output.tableId}
              onPick={(table) => props.onChange({ output: { ...task.output!, tableId: table.id } })} />
            <p class="muted">Table: {task.output.tableId === '' ? 'none chosen' : `#${task.output.tableId}`}</p>
            <SelectField label="When pushing fails" value={task.output.onError ?? 'ignore'}
              onValue={(v) => props.onChange({ output: { ...task.output!, onError: v as 'ignore' | 'fail' } })}
              options={[['ignore', 'Keep the run successful'], ['fail', 'Fail the run']]} />
            <Button variant="ghost" onClick={() => props.onChange({ output: undefined })}>Remove output</Button>
          </>
        )}
      </section>
    </div>
  );
}
