import { post } from '../../api/client';
import type { ExtractField, ExtractOption, Task } from '../../api/types';
import { Button, ErrorBox, SelectField, TextField } from '../../components/ui';
import { useAction } from '../../lib/use-async';
import { useState } from 'preact/hooks';
import { MappingPicker, type MappingPick, type PickTarget } from './mapping-picker';

const TYPES: Array<[string, string]> = [['', 'text'], ['number', 'number'], ['date', 'date (ISO)'], ['url', 'URL (absolute)']];
const STARTER: ExtractOption = { list: '', fields: [{ name: 'title', selector: '' }] };

/** The task's field mapping as it is, or undefined (the API keeps it outside the kernel's record). */
export const extractOf = (task: Task): ExtractOption | undefined => {
  const extract = task.extract as ExtractOption | undefined;
  return extract && Array.isArray(extract.fields) ? extract : undefined;
};

/** A field with its empty parts left out (the API takes an absent selector or attribute, not an empty one). */
function tidyField(field: ExtractField): ExtractField {
  return { name: field.name, ...(field.selector ? { selector: field.selector } : {}), ...(field.attribute ? { attribute: field.attribute } : {}), ...(field.type ? { type: field.type } : {}) };
}

/**
 * The field mapping (README "Field mapping"): a row selector and fields read from each row, the alternative to an
 * extraction script and what mode http runs. "Convert to script" swaps it for the equivalent script.
 */
export function ExtractEditor(props: { task: Task; onChange: (patch: Partial<Task>) => void }) {
  const mapping = extractOf(props.task);
  const convert = useAction();
  const [picking, setPicking] = useState<PickTarget | undefined>();
  const [rowCount, setRowCount] = useState<number | undefined>();
  const set = (next: ExtractOption) => props.onChange({ extract: { ...(next.list ? { list: next.list } : {}), fields: next.fields.map(tidyField) } });
  const setField = (index: number, patch: Partial<ExtractField>) =>
    mapping && set({ ...mapping, fields: mapping.fields.map((field, i) => (i === index ? { ...field, ...patch } : field)) });

  if (!mapping) {
    return (
      <section aria-labelledby="extract-title">
        <h2 id="extract-title">Field mapping</h2>
        <p class="hint">Name the values to read (a CSS selector and, optionally, an attribute and a type) instead of writing a script.
          Mode http needs one.</p>
        <Button onClick={() => props.onChange({ extract: STARTER })}
          disabled={Boolean(props.task.extractionScript)} title={props.task.extractionScript ? 'clear the extraction script first' : undefined}>
          Use a field mapping
        </Button>
      </section>
    );
  }
  // A pick fills the form: the rows' selector, or the field's selector with the suggested attribute and type (and
  // the suggested name while the field still has a generated one).
  const onPicked = (target: PickTarget, pick: MappingPick) => {
    if (target === 'rows') {
      setRowCount(pick.count);
      return set({ ...mapping, list: pick.list ?? '' });
    }
    const field = mapping.fields[target];
    if (!field) return;
    const taken = new Set(mapping.fields.filter((_, i) => i !== target).map((f) => f.name));
    const generated = /^(field\d+|title)$/.test(field.name) && pick.name && !taken.has(pick.name);
    setField(target, { selector: pick.selector ?? '', attribute: pick.attribute ?? '', type: pick.type ?? field.type, ...(generated ? { name: pick.name } : {}) });
  };
  const toScript = async () => {
    const answer = await convert.run(() => post<{ script: string }>('/api/tasks/extract/script', { extract: { ...mapping, fields: mapping.fields.map(tidyField) } }));
    if (answer) props.onChange({ extractionScript: answer.script, extract: undefined });
  };
  return (
    <section aria-labelledby="extract-title">
      <h2 id="extract-title">Field mapping</h2>
      <TextField label="Rows (CSS selector)" value={mapping.list ?? ''} placeholder="li.product — empty: one object from the page"
        hint="Each element it matches gives one row; the fields' selectors are read inside it."
        onValue={(list) => set({ ...mapping, list })} />
      <div class="row-actions">
        <Button onClick={() => setPicking('rows')} disabled={!props.task.url} title={props.task.url ? 'open the task\'s page and click one of the rows' : 'give the task a URL first'}>
          Pick rows on the page</Button>
        {rowCount !== undefined && mapping.list && <span class="muted" role="status">{rowCount} rows match</span>}
      </div>
      <table class="extract-fields">
        <caption class="muted">Fields: the first match of the selector inside the row (empty: the row itself); its text, or the attribute.</caption>
        <thead><tr><th>name</th><th>selector</th><th>attribute</th><th>type</th><th /></tr></thead>
        <tbody>
          {mapping.fields.map((field, index) => (
            <tr key={index}>
              <td><TextField label={`Name of field ${index + 1}`} class="bare" value={field.name} onValue={(name) => setField(index, { name })} required maxLength={100} /></td>
              <td><TextField label={`Selector of field ${index + 1}`} class="bare" value={field.selector ?? ''} placeholder=".price" onValue={(selector) => setField(index, { selector })} /></td>
              <td><TextField label={`Attribute of field ${index + 1}`} class="bare" value={field.attribute ?? ''} placeholder="text" onValue={(attribute) => setField(index, { attribute })} /></td>
              <td><SelectField label={`Type of field ${index + 1}`} class="bare" value={field.type ?? ''} options={TYPES}
                onValue={(type) => setField(index, { type: (type || undefined) as ExtractField['type'] })} /></td>
              <td><Button variant="ghost" aria-label={`Pick field ${field.name || index + 1} on the page`} disabled={!props.task.url || !mapping.list}
                title={mapping.list ? 'click the value inside one of the rows' : 'pick the rows first'} onClick={() => setPicking(index)}>Pick</Button>
                <Button variant="ghost" aria-label={`Remove field ${field.name || index + 1}`} disabled={mapping.fields.length === 1}
                onClick={() => set({ ...mapping, fields: mapping.fields.filter((_, i) => i !== index) })}>Remove</Button></td>
            </tr>
          ))}
        </tbody>
      </table>
      <div class="row-actions">
        <Button onClick={() => set({ ...mapping, fields: [...mapping.fields, { name: `field${mapping.fields.length + 1}` }] })} disabled={mapping.fields.length >= 100}>Add a field</Button>
        <Button onClick={() => void toScript()} busy={convert.busy} disabled={props.task.mode === 'http'}
          title={props.task.mode === 'http' ? 'mode http runs no scripts' : 'replace the mapping by the equivalent extraction script'}>Convert to script</Button>
        <Button variant="ghost" onClick={() => props.onChange({ extract: undefined })}>Remove the mapping</Button>
      </div>
      <ErrorBox error={convert.error} what="Converting the mapping" />
      {picking !== undefined && props.task.url && (
        <MappingPicker url={props.task.url} mapping={{ ...mapping, fields: mapping.fields.map(tidyField) }} target={picking}
          onPicked={onPicked} onClose={() => setPicking(undefined)} />
      )}
    </section>
  );
}
