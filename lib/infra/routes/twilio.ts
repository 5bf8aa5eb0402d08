import { route, type RouteSpec } from '../route-spec.js';

/** The twilio routes, assembled into the one table by lib/infra/routes.ts; their handlers import only this group. */
export const TWILIO_ROUTES = {
  twilioVoice: route({ method: 'POST', path: '/twilio/voice', entry: 'functions/twilio/voice.ts', summary: 'Twilio voice webhook (signed by Twilio): answers inbound calls with TwiML', tag: 'Webhooks', auth: false, ipLimit: 'webhook', bodyKind: 'raw', errors: [403], status: 200, produces: 'text/xml' }),
  twilioStatus: route({ method: 'POST', path: '/twilio/status', entry: 'functions/twilio/status.ts', summary: 'Twilio call status callback (signed by Twilio)', tag: 'Webhooks', auth: false, ipLimit: 'webhook', bodyKind: 'raw', errors: [403], status: 204 }),
  twilioAmd: route({ method: 'POST', path: '/twilio/amd', entry: 'functions/twilio/amd.ts', summary: 'Twilio asynchronous answering-machine verdict (signed by Twilio)', tag: 'Webhooks', auth: false, ipLimit: 'webhook', bodyKind: 'raw', errors: [403], status: 204 }),
  twilioTransfer: route({ method: 'POST', path: '/twilio/transfer', entry: 'functions/twilio/transfer.ts', summary: "Twilio <Gather> action of a warm transfer's target (signed by Twilio): answers with TwiML", tag: 'Webhooks', auth: false, ipLimit: 'webhook', bodyKind: 'raw', errors: [403], status: 200, produces: 'text/xml' }),
} as const satisfies Record<string, RouteSpec>;
