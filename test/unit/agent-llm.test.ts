/**
 * Invariant: a custom model's endpoint is judged at save as a tool URL is, and https only outside
 * TOOL_ALLOWED_HOSTS; its fields belong to `custom` alone; the key reads back as the mask; overrides cannot
 * name an endpoint; the context headers are ASCII JSON within their cap; a custom model costs the platform
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { assertAgentLlm, llmBaseUrlProblems, maskAgent } from '../../lib/domain/agent-llm.js';
import { AgentOverrides } from '../../lib/domain/agent-overrides.js';
import { ValidationError } from '../../lib/domain/errors.js';
import { capabilitiesOnWorkspaceKeys } from '../../lib/domain/provider-key.js';
import { contextHeaders, jsonHeader, MAX_CONTEXT_HEADER_BYTES } from '../../lib/vendors/llm/custom.js';

const none = { allowedHosts: [] };

describe('a custom model endpoint at save', () => {
  it('takes a public https URL, and plain http only for an allow-listed host', () => {
    expect(llmBaseUrlProblems('https://api.groq.com/openai/v1', none)).toEqual([]);
    expect(llmBaseUrlProblems('http://127.0.0.1:11434/v1', { allowedHosts: ['127.0.0.1:11434'] })).toEqual([]);
    expect(llmBaseUrlProblems('http://127.0.0.1:11435/v1', { allowedHosts: ['127.0.0.1:11434'] })[0]?.message).toMatch(/private, loopback/);
    expect(llmBaseUrlProblems('http://llm.example.com/v1', none)[0]?.message).toMatch(/must use https/);
  });

  it('refuses literal private and metadata addresses, internal names, other schemes, credentials, queries', () => {
    for (const url of ['https://[::1]/v1', 'https://169.254.169.254/v1', 'https://[::ffff:10.0.0.1]/v1', 'https://localhost/v1', 'https://metadata/v1', 'https://ollama.internal/v1']) {
      expect(llmBaseUrlProblems(url, none), url).toHaveLength(1);
    }
    expect(llmBaseUrlProblems('ftp://llm.example.com/v1', none)[0]?.message).toBe('must use https');
    expect(llmBaseUrlProblems('https://k:s@llm.example.com/v1', none)[0]?.message).toMatch(/credentials/);
    expect(llmBaseUrlProblems('https://llm.example.com/v1?key=1', none)[0]?.message).toMatch(/query/);
    expect(llmBaseUrlProblems('llm.example.com/v1', none)[0]?.message).toMatch(/absolute https URL/);
  });

  it('keeps the endpoint fields to custom agents and requires the URL there', () => {
    expect(() => assertAgentLlm({ llm_provider: 'custom' }, none)).toThrow(ValidationError);
    const refused = (() => {
      try {
        assertAgentLlm({ llm_provider: 'openai', llm_api_key: 'sk-x' }, none);
      } catch (error) {
        return error;
      }
    })() as ValidationError;
    expect(refused.details).toEqual([{ field: 'llm_api_key', message: 'llm_api_key belongs to llm_provider "custom"' }]);
    expect(() => assertAgentLlm({ llm_provider: 'openai', llm_base_url: null, llm_api_key: null }, none)).not.toThrow();
    expect(() => assertAgentLlm({ llm_provider: 'custom', llm_base_url: 'https://llm.example.com/v1' }, none)).not.toThrow();
  });

  it('shows a set key as the mask and nothing else', () => {
    expect(maskAgent({ llm_api_key: 'v1:iv:tag:body' })).toEqual({ llm_api_key: '********' });
    expect(maskAgent({ llm_api_key: null })).toEqual({ llm_api_key: null });
  });

  it('refuses an endpoint or a key in agent_overrides', () => {
    expect(AgentOverrides.safeParse({ llm_base_url: 'https://evil.example/v1' }).success).toBe(false);
    expect(AgentOverrides.safeParse({ llm_api_key: 'sk-x' }).success).toBe(false);
    expect(AgentOverrides.safeParse({ llm_provider: 'custom', llm_model: 'mine' }).success).toBe(true);
  });
});

describe('the context a custom model receives', () => {
  it('sends the ids always and the JSON objects when there are any, as ASCII', () => {
    expect(contextHeaders({ callId: 'call_1', agentId: 'agt_1', variables: {}, metadata: {} })).toEqual({ 'x-call-id': 'call_1', 'x-agent-id': 'agt_1' });
    const headers = contextHeaders({ callId: 'call_1', agentId: 'agt_1', variables: { name: 'Zoë' }, metadata: { n: 1 } });
    expect(headers['x-call-variables']).toBe('{"name":"Zo\\u00eb"}');
    expect(JSON.parse(headers['x-call-variables']!)).toEqual({ name: 'Zoë' });
    expect(headers['x-call-metadata']).toBe('{"n":1}');
  });

  it('leaves out an object whose JSON is over the cap', () => {
    expect(jsonHeader({ note: 'x'.repeat(MAX_CONTEXT_HEADER_BYTES) })).toBeUndefined();
    expect(contextHeaders({ callId: 'c', agentId: 'a', metadata: { note: 'x'.repeat(MAX_CONTEXT_HEADER_BYTES) } })).not.toHaveProperty('x-call-metadata');
  });

  it('counts a custom model as on the workspace\'s own keys, but not a vendor fallback on the platform\'s', () => {
    const agent = { stt_provider: 'deepgram', llm_provider: 'custom', tts_provider: 'elevenlabs' } as const;
    expect(capabilitiesOnWorkspaceKeys(agent, {})).toEqual(['llm']);
    expect(capabilitiesOnWorkspaceKeys({ ...agent, fallback: { llm: [{ provider: 'openai', model: 'gpt-4o-mini' }] } }, {})).toEqual([]);
    expect(capabilitiesOnWorkspaceKeys({ ...agent, fallback: { llm: [{ provider: 'openai', model: 'gpt-4o-mini' }] } }, { openai: 'sk-w' })).toEqual(['llm']);
  });
});
