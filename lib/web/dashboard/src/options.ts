import { useQuery } from '@tanstack/react-query';
import type { Page } from './api.js';
import { api } from './session.js';

/** The workspace's agents and phone numbers as choices of a form (the first 100 of each). */

export interface AgentOption {
  readonly _id: string;
  readonly name: string;
}

export interface NumberOption {
  readonly _id: string;
  readonly number: string;
  readonly status?: string;
  readonly agentId?: string | null;
}

export const useAgentOptions = () => useQuery({ queryKey: ['agents', 'options'], queryFn: () => api<Page<AgentOption>>('GET', '/api/agents?limit=100') });
export const useNumberOptions = () => useQuery({ queryKey: ['numbers', 'options'], queryFn: () => api<Page<NumberOption>>('GET', '/api/phone-numbers?limit=100') });
