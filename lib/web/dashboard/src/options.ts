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

/**
 * Whether `text` looks like an E.164 number: `+`, then 8 to 15 digits, the first not 0 (spaces, dots, dashes
 * and brackets aside). The API checks the number against each country's plan and says so in its answer.
 */
export function looksLikeE164(text: string): boolean {
  return /^\+[1-9]\d{7,14}$/.test(text.replace(/[\s().-]/g, ''));
}
