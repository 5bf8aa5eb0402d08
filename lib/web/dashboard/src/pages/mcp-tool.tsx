import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError } from '../api.js';
import { call } from '../session.js';
import { Button, ErrorNotice, TextArea, TextField, formatDate } from '../ui.js';
import { HeaderRows, headersToSend, type HeaderRow, type ToolDetail } from './tool-form.js';

/**
 * An MCP server as a tool (docs/tools.md, "MCP servers"): the form that adds or edits one, and the list of
 * the tools its server lists, with the allow-list and a refresh. Saving asks the server for its tools, so an
 * unreachable server, or one with too many tools, is answered right here by the API's 4xx.
 */

type McpTool = NonNullable<ToolDetail['mcp']>['tools'][number];

/** `city (string, required), days (integer)`: the arguments an input schema names. */
function argumentsOf(schema: McpTool['inputSchema']): string {
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const names = Object.entries(properties).map(([name, p]) => `${name} (${typeof p.type === 'string' ? p.type : 'any'}${required.has(name) ? ', required' : ''})`);
  return names.length > 0 ? names.join(', ') : 'no arguments';
}

/** The server's tools as the details show them, each marked offered or not by the allow-list. */
export function McpToolList({ tool }: { tool: ToolDetail }) {
  const queries = useQueryClient();
  const refresh = useMutation({
    mutationFn: () => call((c) => c.POST('/api/tools/{id}/refresh', { params: { path: { id: tool._id } } })),
    onSuccess: (fresh) => {
      queries.setQueryData(['tool', tool._id], fresh);
    },
  });
  const allowed = tool.config?.allowed_tools;
  const tools = tool.mcp?.tools ?? [];
  return (
    <section aria-label="Server tools">
      <h3>Server tools ({tools.length})</h3>
      <p className="hint">
        {allowed ? `Agents may call the ${allowed.length} ticked in the tool's settings.` : 'Agents may call every tool the server lists.'} Listed{' '}
        {tool.mcp ? formatDate(tool.mcp.refreshedAt) : 'never'} over {tool.mcp?.transport === 'sse' ? 'HTTP+SSE' : 'Streamable HTTP'}.
      </p>
      <ul className="plain">
        {tools.map((t) => (
          <li key={t.name}>
            <code>{t.name}</code> {allowed && !allowed.includes(t.name) ? <span className="cell-note inline">not offered</span> : null}: {t.description || 'No description.'}{' '}
            <span className="cell-note inline">{argumentsOf(t.inputSchema)}</span>
          </li>
        ))}
      </ul>
      <ErrorNotice error={refresh.error} />
      <Button busy={refresh.isPending} onClick={() => refresh.mutate()}>
        Refresh tools
      </Button>
    </section>
  );
}

export function McpToolForm({ tool, onDone }: { tool?: ToolDetail; onDone: () => void }) {
  const queries = useQueryClient();
  const [name, setName] = useState(tool?.name ?? '');
  const [description, setDescription] = useState(tool?.description ?? '');
  const [url, setUrl] = useState(tool?.config?.url ?? '');
  const [headers, setHeaders] = useState<HeaderRow[]>(Object.keys(tool?.config?.headers ?? {}).map((h) => ({ name: h, value: '', stored: true })));
  const [headersTouched, setHeadersTouched] = useState(false);
  const listed = tool?.mcp?.tools.map((t) => t.name) ?? [];
  const [allTools, setAllTools] = useState(tool?.config?.allowed_tools === undefined);
  const [ticked, setTicked] = useState<string[]>(tool?.config?.allowed_tools ?? listed);
  const save = useMutation({
    mutationFn: () => {
      const sentHeaders = headersToSend(headers);
      const config = { url, ...(!tool || headersTouched ? { headers: sentHeaders } : {}) };
      if (tool) {
        // "Every tool" clears the allow-list (null), so tools the server adds later are offered too.
        const allowed_tools = allTools ? (tool.config?.allowed_tools ? null : undefined) : ticked;
        return call((c) => c.PUT('/api/tools/{id}', { params: { path: { id: tool._id } }, body: { name, description, config: { ...config, ...(allowed_tools !== undefined ? { allowed_tools } : {}) } } }));
      }
      return call((c) => c.POST('/api/tools', { body: { type: 'mcp', name, description, config } }));
    },
    onSuccess: (saved) => {
      void queries.invalidateQueries({ queryKey: ['tools'] });
      if (tool) queries.setQueryData(['tool', tool._id], saved);
      onDone();
    },
  });
  const error = save.error instanceof ApiError ? save.error : undefined;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <TextField label="Name" required maxLength={200} autoFocus hint="Prefixes its tools' names for the model, for example weather." error={error?.forField('name')} value={name} onChange={(e) => setName(e.target.value)} />
      <TextArea label="Description" required rows={2} hint="What the server offers; used for a tool that has no description of its own." error={error?.forField('description')} value={description} onChange={(e) => setDescription(e.target.value)} />
      <TextField label="Server URL" type="url" required placeholder="https://mcp.example.com/mcp" hint="Its Streamable HTTP endpoint (or HTTP+SSE). Its tools are listed when you save." error={error?.forField('config.url')} value={url} onChange={(e) => setUrl(e.target.value)} />
      <HeaderRows
        rows={headers}
        onChange={(rows) => {
          setHeaders(rows);
          setHeadersTouched(true);
        }}
      />
      {tool && listed.length > 0 ? (
        <fieldset className="choices">
          <legend>Tools agents may call</legend>
          <label className="check">
            <input type="checkbox" checked={allTools} onChange={(e) => setAllTools(e.target.checked)} />
            Every tool the server lists
          </label>
          {allTools
            ? null
            : listed.map((n) => (
                <label className="check" key={n}>
                  <input type="checkbox" checked={ticked.includes(n)} onChange={(e) => setTicked(e.target.checked ? [...ticked, n] : ticked.filter((x) => x !== n))} />
                  {n}
                </label>
              ))}
        </fieldset>
      ) : null}
      <ErrorNotice error={save.error} />
      <div className="dialog-footer">
        <Button onClick={onDone}>Cancel</Button>
        <Button variant="primary" type="submit" busy={save.isPending}>
          {tool ? 'Save server' : 'Add server'}
        </Button>
      </div>
    </form>
  );
}
