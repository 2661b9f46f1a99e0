import { useState } from 'preact/hooks';
import { get, seg } from '../api/client';
import type { Location } from '../api/types';
import { useAsync } from '../lib/use-async';
import { ErrorBox, Loading, SelectField } from './ui';

/**
 * Databases and tables of a tablestore credential, listed by the server with the stored token
 * (the token never reaches the browser).
 */
export function TablePicker(props: { credentialId: string; tableId?: string | number; onPick?: (table: Location) => void }) {
  const [databaseId, setDatabaseId] = useState('');
  const base = `/api/credentials/${seg(props.credentialId)}/proxy/tablestore/databases`;
  const databases = useAsync(() => get<Location[]>(base), [props.credentialId]);
  const tables = useAsync(
    () => (databaseId ? get<Location[]>(`${base}/${seg(databaseId)}/tables`) : Promise.resolve([] as Location[])),
    [props.credentialId, databaseId],
  );
  return (
    <div class="table-picker grid-2">
      {databases.loading && !databases.data ? <Loading label="Loading databases…" /> : (
        <SelectField label="Database" value={databaseId} onValue={setDatabaseId}
          options={[['', databases.data?.length ? 'Choose a database' : 'No databases'], ...(databases.data ?? []).map((d): [string, string] => [String(d.id), d.name])]} />
      )}
      {databaseId && (tables.loading && !tables.data?.length ? <Loading label="Loading tables…" /> : (
        <SelectField label="Table" value={props.tableId !== undefined ? String(props.tableId) : ''}
          onValue={(id) => {
            const table = tables.data?.find((t) => String(t.id) === id);
            if (table) props.onPick?.(table);
          }}
          options={[['', tables.data?.length ? 'Choose a table' : 'No tables'], ...(tables.data ?? []).map((t): [string, string] => [String(t.id), `${t.name} (#${t.id})`])]} />
      ))}
      <ErrorBox error={databases.error} onRetry={databases.reload} />
      <ErrorBox error={tables.error} onRetry={tables.reload} />
    </div>
  );
}
