import { useQuery } from '@tanstack/react-query';
import { call } from './session.js';

/** The workspace's agents and phone numbers as choices of a form (the first 100 of each). */

export const useAgentOptions = () => useQuery({ queryKey: ['agents', 'options'], queryFn: () => call((c) => c.GET('/api/agents', { params: { query: { limit: 100 } } })) });
export const useNumberOptions = () =>
  useQuery({ queryKey: ['numbers', 'options'], queryFn: () => call((c) => c.GET('/api/phone-numbers', { params: { query: { limit: 100 } } })) });
