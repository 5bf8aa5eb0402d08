import { useEffect, useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { Schemas } from '../api.js';
import { LLM_MODELS, LLM_PROVIDERS, STT_PROVIDERS, TTS_PROVIDERS, chosen, defaultModel, defaultVoice, withCurrent } from '../catalog.js';
import { LanguagePicker } from './language-picker.js';
import { VoicePicker } from './voice-picker.js';
import { PromptEditor } from '../prompt-editor.js';
import { TalkToAgent } from './talk-panel.js';
import { VersionsCard } from './agent-versions.js';
import { KnowledgePicker, type KnowledgeMode } from './knowledge-picker.js';
import { HandoffEditor, type Handoff } from './handoff-editor.js';
import { AmbienceFields, PronunciationsEditor, type Ambience, type Pronunciation } from './agent-sound.js';
import { call } from '../session.js';
import { BUILT_IN_VARIABLES } from '../template.js';
import { Button, ConfirmDialog, DataTable, Empty, ErrorNotice, Loading, Notice, PageHeader, Pager, QueryView, Select, TextField, formatDate } from '../ui.js';

/** An agent as GET /api/agents/{id} answers it (the generated types of sdk/, docs/sdk.md). */
export type Agent = Schemas['Agent'];

type Draft = Pick<Agent, 'name' | 'llm_provider' | 'llm_model' | 'stt_provider' | 'tts_provider' | 'language' | 'system_prompt' | 'first_message' | 'first_message_mode' | 'first_message_interruptible' | 'recording_enabled' | 'ambience_enabled'> & {
  ambience: Ambience;
  pronunciations: Pronunciation[];
  tts_voice_id: string;
  max_duration_seconds: string;
  tool_ids: string[] | null;
  knowledge_base_ids: string[];
  knowledge_base_mode: KnowledgeMode;
  handoffs: Handoff[];
  /** Custom models only; the key reads back as ******** once set (the API never returns it). */
  llm_base_url: string;
  llm_api_key: string;
};

const NEW_AGENT: Draft = {
  name: '',
  llm_provider: 'openai',
  llm_model: defaultModel('openai'),
  stt_provider: 'deepgram',
  tts_provider: 'deepgram',
  tts_voice_id: defaultVoice('deepgram'),
  language: 'en-US',
  system_prompt: '',
  first_message: 'Hello {{contactName}}, how can I help you today?',
  first_message_mode: 'agent_speaks_first',
  first_message_interruptible: false,
  recording_enabled: true,
  ambience_enabled: false,
  ambience: { sound: 'office', volume: 0.3 },
  pronunciations: [],
  max_duration_seconds: '',
  // A new agent is given the tools ticked for it, none until then: the API's default (every workspace tool,
  // when `tool_ids` is absent) stays for clients that never name tools.
  tool_ids: [],
  knowledge_base_ids: [],
  knowledge_base_mode: 'auto',
  handoffs: [],
  llm_base_url: '',
  llm_api_key: '',
};

/** How a call opens (docs/voice-pipeline.md, "The greeting"). */
const GREETING_MODES = [
  ['agent_speaks_first', 'The agent speaks first'],
  ['wait_for_caller', 'Wait for the caller, then say the first message'],
  ['model_generated', 'The model writes the greeting'],
] as const satisfies readonly (readonly [Agent['first_message_mode'], string])[];

const label = (options: readonly (readonly [string, string])[], value: string) => options.find(([v]) => v === value)?.[1] ?? value;

export function AgentsPage() {
  const [page, setPage] = useState(1);
  const agents = useQuery({ queryKey: ['agents', page], queryFn: () => call((c) => c.GET('/api/agents', { params: { query: { page, limit: 20 } } })) });
  return (
    <>
      <PageHeader
        title="Agents"
        description="Each agent is a voice, a model and a prompt that answers and places calls."
        actions={
          <Link className="btn btn-primary" to="/agents/new">
            New agent
          </Link>
        }
      />
      <QueryView query={agents} what="agents">
        {(result) =>
          result.data.length === 0 ? (
            <Empty title="No agents yet">
              <p>Create your first agent, then talk to it right here in the browser.</p>
              <Link className="btn btn-primary" to="/agents/new">
                Create an agent
              </Link>
            </Empty>
          ) : (
            <>
              <DataTable
                caption="Agents"
                rows={result.data}
                rowKey={(a) => a._id}
                columns={[
                  { header: 'Name', cell: (a) => <Link to={`/agents/${a._id}`}>{a.name}</Link> },
                  { header: 'Model', cell: (a) => <>{label(LLM_PROVIDERS, a.llm_provider)} · <code>{a.llm_model}</code></> },
                  // The list carries the speech vendor, not the voice id (API_SPEC.md).
                  { header: 'Voice', cell: (a) => label(TTS_PROVIDERS, a.tts_provider) },
                  { header: 'Created', cell: (a) => formatDate(a.createdAt) },
                ]}
              />
              <Pager page={result.page} limit={result.limit} total={result.total} onPage={setPage} what="Agents" />
            </>
          )
        }
      </QueryView>
    </>
  );
}

/**
 * The fields contacts of this workspace have, for the prompt check: the built-in two plus the
 * `externalFields` keys of the newest 25 contacts (the list does not carry them, so each is read).
 */
function useContactFields() {
  return useQuery({
    queryKey: ['contact-fields'],
    queryFn: async () => {
      const list = await call((c) => c.GET('/api/contacts', { params: { query: { limit: 25 } } }));
      const contacts = await Promise.all(list.data.map((contact) => call((c) => c.GET('/api/contacts/{id}', { params: { path: { id: contact._id } } }))));
      return new Set<string>([...BUILT_IN_VARIABLES, ...contacts.flatMap((c) => Object.keys(c.externalFields ?? {}))]);
    },
    staleTime: 60_000,
  });
}

/**
 * Which workspace tools the agent may use: all of them (the default, and tools added later too) or the ones
 * ticked. Ids of tools deleted since are dropped as soon as the choice changes, so a save never names one.
 */
function ToolsPicker({ value, onChange }: { value: readonly string[] | null; onChange: (ids: readonly string[] | null) => void }) {
  const tools = useQuery({ queryKey: ['tools'], queryFn: () => call((c) => c.GET('/api/tools')) });
  const all = tools.data?.data ?? [];
  const chosen = new Set(value ?? []);
  const pick = (id: string, on: boolean) => onChange(all.filter((t) => (t._id === id ? on : chosen.has(t._id))).map((t) => t._id));
  return (
    <fieldset className="tools-picker" aria-describedby="tools-hint">
      <legend>Tools</legend>
      <p id="tools-hint" className="hint">
        Built-in actions (ending the call, keypad tones, do-not-call requests on phone calls) stay available whatever you choose.
      </p>
      <label className="check">
        <input type="radio" name="tool-scope" checked={value === null} onChange={() => onChange(null)} />
        All workspace tools, including tools added later
      </label>
      <label className="check">
        <input type="radio" name="tool-scope" checked={value !== null} onChange={() => onChange(all.filter((t) => chosen.has(t._id)).map((t) => t._id))} />
        Only the tools chosen below
      </label>
      {value !== null ? (
        <QueryView query={tools} what="the tools">
          {() =>
            all.length === 0 ? (
              <p className="hint">
                This workspace has no tools yet. <Link to="/tools">Add a tool</Link>
              </p>
            ) : (
              <ul className="tool-choices">
                {all.map((t) => (
                  <li key={t._id}>
                    <label className="check">
                      <input type="checkbox" checked={chosen.has(t._id)} onChange={(e) => pick(t._id, e.target.checked)} />
                      <span>
                        {t.name} <span className="hint">({t.type}) {t.description}</span>
                      </span>
                    </label>
                  </li>
                ))}
              </ul>
            )
          }
        </QueryView>
      ) : null}
    </fieldset>
  );
}

/** Only the fields this form edits: the agent's other settings (interruptions, fallbacks…) are left as they are. */
function toDraft(agent: Agent): Draft {
  const draft = { ...NEW_AGENT };
  for (const key of Object.keys(NEW_AGENT) as (keyof Draft)[]) {
    const value = agent[key as keyof Agent];
    if (value !== undefined) (draft as Record<string, unknown>)[key] = key === 'max_duration_seconds' ? String(value) : value;
  }
  if (agent.max_duration_seconds === undefined) draft.max_duration_seconds = '';
  // Absent (or null) is every workspace tool; only a new agent starts with none.
  draft.tool_ids = agent.tool_ids ?? null;
  draft.llm_base_url = agent.llm_base_url ?? '';
  draft.llm_api_key = agent.llm_api_key ?? '';
  return draft;
}

/** The create body: every field of the form (the tool list only when some were picked). */
function body(draft: Draft): Schemas['AgentCreate'] {
  const { max_duration_seconds, tool_ids, llm_base_url, llm_api_key, knowledge_base_ids, knowledge_base_mode, handoffs, ...fields } = draft;
  // The endpoint and key belong to a custom model; switching to a vendor drops them (the API removes both).
  const own = draft.llm_provider === 'custom' ? { ...(llm_base_url ? { llm_base_url } : {}), ...(llm_api_key ? { llm_api_key } : {}) } : {};
  return { ...fields, ...own, ...(max_duration_seconds ? { max_duration_seconds: Number(max_duration_seconds) } : {}), ...(tool_ids === null ? {} : { tool_ids }), ...(knowledge_base_ids.length ? { knowledge_base_ids, knowledge_base_mode } : {}), ...(handoffs.length ? { handoffs } : {}) };
}

/** The update body: only what changed. */
function changes(draft: Draft, original: Agent): Schemas['AgentUpdate'] {
  const { tool_ids, knowledge_base_ids: _k, handoffs: _h, ...all } = body(draft);
  // Objects and lists compare by content; an agent without a list has none.
  const was = (k: string) => (k === 'pronunciations' ? (original.pronunciations ?? []) : k === 'ambience' ? (original.ambience ?? NEW_AGENT.ambience) : original[k as keyof Agent]);
  const same = (k: string, v: unknown) => (typeof v === 'object' ? JSON.stringify(v) === JSON.stringify(was(k)) : was(k) === v);
  const changed: Schemas['AgentUpdate'] = Object.fromEntries(Object.entries(all).filter(([k, v]) => !same(k, v)));
  if (JSON.stringify(draft.knowledge_base_ids) !== JSON.stringify(original.knowledge_base_ids ?? [])) changed.knowledge_base_ids = draft.knowledge_base_ids;
  if (JSON.stringify(draft.handoffs) !== JSON.stringify(original.handoffs ?? [])) changed.handoffs = draft.handoffs;
  // Lists compare by content; absent and null both mean every tool.
  return JSON.stringify(draft.tool_ids) === JSON.stringify(original.tool_ids ?? null) ? changed : { ...changed, tool_ids: draft.tool_ids };
}

/** The fields a prompt may use, each ready to copy. */
function VariablesCard({ known, loaded }: { known: ReadonlySet<string>; loaded: boolean }) {
  return (
    <section className="card" aria-labelledby="vars-heading">
      <h2 id="vars-heading">Variables</h2>
      <p>Write a name in double braces: each call fills it from its own <code>variables</code>, then the contact being called; <code>{'{{name|default}}'}</code> gives a default (docs/call-data.md).</p>
      <ul className="var-list">
        {[...known].map((name) => (
          <li key={name}>
            <code className="var-known">{`{{${name}}}`}</code>
          </li>
        ))}
      </ul>
      <p className="hint">{loaded ? 'Your own fields come from the columns of the contacts you upload.' : 'Reading your contacts’ fields…'}</p>
    </section>
  );
}

export function AgentEditPage() {
  const { id } = useParams();
  const agent = useQuery({ queryKey: ['agent', id], queryFn: () => call((c) => c.GET('/api/agents/{id}', { params: { path: { id: id ?? '' } } })), enabled: !!id });
  if (!id) return <AgentForm />;
  if (agent.isPending) return <Loading what="the agent" />;
  if (agent.isError)
    return (
      <>
        <PageHeader title="Agent" />
        <ErrorNotice error={agent.error} />
        <Link to="/agents">Back to agents</Link>
      </>
    );
  return <AgentForm original={agent.data} key={agent.data._id} />;
}

function AgentForm({ original }: { original?: Agent }) {
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [draft, setDraft] = useState<Draft>(original ? toDraft(original) : NEW_AGENT);
  const [deleting, setDeleting] = useState(false);
  const fields = useContactFields();
  const known = useMemo(() => fields.data ?? new Set<string>(BUILT_IN_VARIABLES), [fields.data]);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  // The agent changed under the form other than by its own save (a version restored as the draft): show it.
  const ownSave = useRef(original?.updatedAt);
  useEffect(() => {
    if (original && original.updatedAt !== ownSave.current) {
      ownSave.current = original.updatedAt;
      setDraft(toDraft(original));
    }
  }, [original]);
  const save = useMutation({
        mutationFn: (): Promise<Agent> =>
      original
        ? call((c) => c.PATCH('/api/agents/{id}', { params: { path: { id: original._id } }, body: changes(draft, original) }))
        : call((c) => c.POST('/api/agents', { body: body(draft) })).then((created) => call((c) => c.GET('/api/agents/{id}', { params: { path: { id: created._id } } }))),
    onSuccess: (saved) => {
      ownSave.current = saved.updatedAt;
      void queries.invalidateQueries({ queryKey: ['agents'] });
      queries.setQueryData(['agent', saved._id], saved);
      if (!original) navigate(`/agents/${saved._id}`, { replace: true, state: { created: true } });
    },
  });
  const remove = useMutation({
    mutationFn: () => call((c) => c.DELETE('/api/agents/{id}', { params: { path: { id: original!._id } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ['agents'] });
      navigate('/agents');
    },
  });
  const dirty = original ? Object.keys(changes(draft, original)).length > 0 : true;
  useEffect(() => save.reset(), [draft]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <>
      <PageHeader
        title={original ? original.name : 'New agent'}
        description={original ? <>Agent id <code>{original._id}</code></> : 'Choose a voice, a model and what the agent should do.'}
        actions={
          original ? (
            <Button variant="danger" onClick={() => setDeleting(true)}>
              Delete agent
            </Button>
          ) : null
        }
      />
      <div className="two-columns">
        <form
          className="card form"
          aria-label="Agent settings"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <TextField label="Name" required maxLength={200} value={draft.name} onChange={(e) => set('name', e.target.value)} />
          <div className="grid-2">
            <Select
              label="Language model provider"
              value={draft.llm_provider}
              options={LLM_PROVIDERS}
              onChange={(e) => setDraft((d) => ({ ...d, llm_provider: chosen(LLM_PROVIDERS, e.target.value) ?? d.llm_provider, llm_model: defaultModel(e.target.value) }))}
            />
            {draft.llm_provider === 'custom' ? (
              <TextField label="Model" required maxLength={100} placeholder="llama3.1:8b" hint="The model name your server expects." value={draft.llm_model} onChange={(e) => set('llm_model', e.target.value)} />
            ) : (
              <Select label="Model" value={draft.llm_model} options={withCurrent(LLM_MODELS[draft.llm_provider] ?? [], draft.llm_model)} onChange={(e) => set('llm_model', e.target.value)} />
            )}
            <Select label="Speech recognition" value={draft.stt_provider} options={STT_PROVIDERS} onChange={(e) => set('stt_provider', chosen(STT_PROVIDERS, e.target.value) ?? draft.stt_provider)} />
            <Select
              label="Voice provider"
              value={draft.tts_provider}
              options={TTS_PROVIDERS}
              onChange={(e) => setDraft((d) => ({ ...d, tts_provider: chosen(TTS_PROVIDERS, e.target.value) ?? d.tts_provider, tts_voice_id: defaultVoice(e.target.value, d.language) }))}
            />
          </div>
          {draft.llm_provider === 'custom' ? (
            <div className="grid-2">
              <TextField
                label="Model server URL"
                type="url"
                required
                maxLength={2000}
                placeholder="https://llm.example.com/v1"
                hint="The base URL of an OpenAI-compatible Chat Completions API (https; docs/vendors-llm.md)."
                value={draft.llm_base_url}
                onChange={(e) => set('llm_base_url', e.target.value)}
              />
              <TextField
                label="API key (optional)"
                type="password"
                autoComplete="off"
                maxLength={4096}
                hint={original?.llm_api_key ? 'A key is stored; type a new one to replace it.' : 'Sent as a Bearer token; stored encrypted and never shown again.'}
                value={draft.llm_api_key}
                onChange={(e) => set('llm_api_key', e.target.value)}
              />
            </div>
          ) : null}
          <VoicePicker provider={draft.tts_provider} language={draft.language} value={draft.tts_voice_id} onChange={(v) => set('tts_voice_id', v)} />
          <PromptEditor
            label="First message"
            rows={2}
            value={draft.first_message}
            onChange={(v) => set('first_message', v)}
            known={known}
            knownLoaded={fields.isSuccess}
            hint="What the agent says when the call connects. Leave empty to let the caller speak first."
          />
          <PromptEditor
            label="System prompt"
            rows={10}
            value={draft.system_prompt}
            onChange={(v) => set('system_prompt', v)}
            known={known}
            knownLoaded={fields.isSuccess}
            hint="Who the agent is and what it should do. {{contactName}}, {{phoneNumber}} and your contacts’ own fields are filled in per call."
          />
          <LanguagePicker
            value={draft.language}
            stt={draft.stt_provider}
            tts={draft.tts_provider}
            // A Deepgram voice speaks one language: a new language takes that language's first voice.
            onChange={(language) => setDraft((d) => ({ ...d, language, ...(d.tts_provider === 'deepgram' ? { tts_voice_id: defaultVoice('deepgram', language) } : {}) }))}
          />
          <div className="grid-2">
            <Select
              label="How the call opens"
              options={GREETING_MODES}
              value={draft.first_message_mode}
              onChange={(e) => set('first_message_mode', e.target.value as Draft['first_message_mode'])}
              hint={draft.first_message_mode === 'model_generated' ? 'The model greets the caller from the system prompt; the first message is not used.' : undefined}
            />
            <label className="check">
              <input type="checkbox" checked={draft.first_message_interruptible} onChange={(e) => set('first_message_interruptible', e.target.checked)} />
              The caller can cut the greeting short
            </label>
          </div>
          <AmbienceFields enabled={draft.ambience_enabled} value={draft.ambience} onEnabled={(on) => set('ambience_enabled', on)} onChange={(a) => set('ambience', a)} />
          <PronunciationsEditor value={draft.pronunciations} provider={draft.tts_provider} onChange={(list) => set('pronunciations', list)} />
          <ToolsPicker value={draft.tool_ids} onChange={(ids) => set('tool_ids', ids === null ? null : [...ids])} />
          <KnowledgePicker value={draft.knowledge_base_ids} mode={draft.knowledge_base_mode} onChange={(ids) => set('knowledge_base_ids', ids)} onMode={(m) => set('knowledge_base_mode', m)} />
          <HandoffEditor self={original?._id} value={draft.handoffs} onChange={(list) => set('handoffs', list)} />
          <div className="grid-2">
            <label className="check">
              <input type="checkbox" checked={draft.recording_enabled} onChange={(e) => set('recording_enabled', e.target.checked)} />
              Record calls
            </label>
            <TextField
              label="Longest call (seconds)"
              type="number"
              min={30}
              max={3600}
              placeholder="600"
              hint="30 to 3,600; empty uses the platform default."
              value={draft.max_duration_seconds}
              onChange={(e) => set('max_duration_seconds', e.target.value)}
            />
          </div>
          <ErrorNotice error={save.error} />
          {save.isSuccess && original ? <Notice kind="success">Saved.</Notice> : null}
          <div className="form-actions">
            <Button variant="primary" type="submit" busy={save.isPending} disabled={!!original && !dirty}>
              {original ? 'Save changes' : 'Create agent'}
            </Button>
            <Link to="/agents">Cancel</Link>
          </div>
        </form>
        <div className="stack">
          {original ? <TalkToAgent agent={original} /> : null}
          {original ? <VersionsCard agent={original} /> : null}
          <VariablesCard known={known} loaded={fields.isSuccess} />
        </div>
      </div>
      <ConfirmDialog
        open={deleting}
        title="Delete this agent?"
        confirm="Delete agent"
        busy={remove.isPending}
        error={remove.error}
        body={<p>Numbers assigned to {original?.name} stop answering until you assign another agent. Call history is kept.</p>}
        onConfirm={() => remove.mutate()}
        onClose={() => setDeleting(false)}
      />
    </>
  );
}
