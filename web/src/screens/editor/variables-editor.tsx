import { useState } from 'preact/hooks';

interface Row { key: string; name: string; value: string; json: boolean }

const toRows = (variables: Record<string, unknown> | undefined): Row[] =>
  Object.entries(variables ?? {}).map(([name, value], i) => ({
    key: `${i}-${name}`, name, json: typeof value !== 'string', value: typeof value === 'string' ? value : JSON.stringify(value),
  }));

function fromRows(rows: Row[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    if (!row.name.trim()) continue;
    let value: unknown = row.value;
    if (row.json) {
      try { value = JSON.parse(row.value); } catch { value = row.value; }
    }
    out[row.name.trim()] = value;
  }
  return out;
}

/** Task-level variables, used as {$name} in URLs and actions; a run may override them. */
export function VariablesEditor(props: { variables: Record<string, unknown> | undefined; onChange: (variables: Record<string, unknown>) => void }) {
  const [rows, setRows] = useState<Row[]>(() => toRows(props.variables));
  const update = (next: Row[]) => {
    setRows(next);
    props.onChange(fromRows(next));
  };
  const edit = (index: number, patch: Partial<Row>) => update(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  return (
    <section aria-labelledby="variables-title">
      <h2 id="variables-title">Variables</h2>
      <p class="hint">Use them as <code>{'{$name}'}</code> in the URL and in actions. A run started through the API may override them. Tick “JSON” to store a number, boolean, list or object.</p>
      {rows.length === 0 && <p class="empty">No variables.</p>}
      <div class="var-rows">
        {rows.map((row, index) => (
          <div class="var-row" key={row.key}>
            <label for={`var-name-${row.key}`} class="sr-only">Name of variable {index + 1}</label>
            <input id={`var-name-${row.key}`} placeholder="name" value={row.name} spellcheck={false}
              onInput={(e) => edit(index, { name: (e.currentTarget as HTMLInputElement).value })} />
            <label for={`var-value-${row.key}`} class="sr-only">Value of variable {index + 1}</label>
            <input id={`var-value-${row.key}`} placeholder="value" value={row.value} spellcheck={false}
              onInput={(e) => edit(index, { value: (e.currentTarget as HTMLInputElement).value })} />
            <span class="check">
              <input id={`var-json-${row.key}`} type="checkbox" checked={row.json} onChange={(e) => edit(index, { json: (e.currentTarget as HTMLInputElement).checked })} />
              <label for={`var-json-${row.key}`}>JSON</label>
            </span>
            <button type="button" class="btn ghost icon danger-text" aria-label={`Remove variable ${row.name || index + 1}`}
              onClick={() => update(rows.filter((_, i) => i !== index))}>✕</button>
          </div>
        ))}
      </div>
      <button type="button" class="btn" onClick={() => update([...rows, { key: `new-${Date.now()}`, name: '', value: '', json: false }])}>Add variable</button>
    </section>
  );
}
