import { useMemo, useState } from 'preact/hooks';
import { cellText, download, toCsv, toTable } from '../lib/table-data';
import { Tabs } from './tabs';

const MAX_ROWS = 500;

/** A run's `result.data`: as JSON or as a table, downloadable as JSON or CSV. */
export function ResultData(props: { data: unknown; filename: string; idPrefix: string }) {
  const [view, setView] = useState('table');
  const table = useMemo(() => toTable(props.data), [props.data]);
  const json = useMemo(() => JSON.stringify(props.data ?? null, null, 2), [props.data]);
  if (props.data === undefined || props.data === null) return <p class="empty">The run returned no data.</p>;
  return (
    <div class="result-data">
      <div class="toolbar">
        <button type="button" class="btn" onClick={() => download(`${props.filename}.json`, json, 'application/json')}>Download JSON</button>
        <button type="button" class="btn" onClick={() => download(`${props.filename}.csv`, toCsv(table), 'text/csv')}>Download CSV</button>
      </div>
      <Tabs label="Result view" idPrefix={props.idPrefix} active={view} onChange={setView}
        tabs={[{ id: 'table', label: `Table (${table.rows.length} rows)` }, { id: 'json', label: 'JSON' }]}>
        {view === 'json' ? <pre class="code json-out" tabIndex={0}>{json}</pre> : (
          <div class="table-wrap" tabIndex={0}>
            <table class="data-table">
              <thead><tr>{table.columns.map((c) => <th key={c} scope="col">{c}</th>)}</tr></thead>
              <tbody>
                {table.rows.slice(0, MAX_ROWS).map((row, i) => (
                  <tr key={i}>{row.map((cell, j) => <td key={j}>{cellText(cell)}</td>)}</tr>
                ))}
              </tbody>
            </table>
            {table.rows.length > MAX_ROWS && <p class="muted">Showing {MAX_ROWS} of {table.rows.length} rows; download to see all.</p>}
          </div>
        )}
      </Tabs>
    </div>
  );
}
