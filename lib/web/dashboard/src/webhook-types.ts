/** What the webhook routes answer (lib/domain/webhook.ts). */

export const EVENT_TYPES = ['call.started', 'call.ended', 'call.analyzed', 'call.transfer', 'contacts.import.completed', 'phone_number.released', 'credits.low', 'webhook.disabled', 'test.ping'] as const;

export interface Endpoint {
  readonly _id: string;
  readonly url: string;
  readonly description: string;
  readonly eventTypes: string[];
  readonly status: 'enabled' | 'disabled';
  readonly disabledReason?: string;
  readonly previousSecretExpiresAt?: string;
  readonly failingSince?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface Delivery {
  readonly _id: string;
  readonly eventId: string;
  readonly eventType: string;
  readonly status: 'pending' | 'retrying' | 'succeeded' | 'failed';
  readonly attempts: { at: string; status?: number; error?: string; latencyMs: number; responseExcerpt?: string }[];
  readonly nextAttemptAt?: string;
  readonly createdAt: string;
}
