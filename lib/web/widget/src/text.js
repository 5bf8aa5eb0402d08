/** The widget's look and words: its stylesheet and what it tells a visitor. */

/**
 * Everything in the shadow root is reset (`all: initial` on the wrapper) so a host page's inherited fonts or
 * colours never reach in. Colours meet WCAG AA contrast in both themes; the accent is the site's.
 */
export const STYLES = `
:host { all: initial; }
.wrap { all: initial; position: fixed; bottom: 20px; z-index: 2147483000; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
--bg: #ffffff; --fg: #111827; --muted: #4b5563; --line: #d1d5db; --accent: --accent-value; --agent-bg: #f3f4f6; color: var(--fg); }
.wrap.right { right: 20px; } .wrap.left { left: 20px; }
.theme-dark { --bg: #111827; --fg: #f9fafb; --muted: #d1d5db; --line: #374151; --agent-bg: #1f2937; }
@media (prefers-color-scheme: dark) { .theme-auto { --bg: #111827; --fg: #f9fafb; --muted: #d1d5db; --line: #374151; --agent-bg: #1f2937; } }
button { font: inherit; cursor: pointer; border-radius: 8px; border: 1px solid var(--line); padding: 8px 14px; background: var(--bg); color: var(--fg); }
button:focus-visible, .log:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; }
button:disabled { opacity: .6; cursor: default; }
.launcher { width: 56px; height: 56px; border-radius: 50%; background: var(--accent); color: #fff; border: 0; display: inline-flex; align-items: center; justify-content: center; box-shadow: 0 4px 14px rgba(0,0,0,.25); }
.panel { position: absolute; bottom: 68px; width: min(360px, calc(100vw - 40px)); max-height: min(560px, calc(100vh - 110px)); display: flex; flex-direction: column;
gap: 8px; padding: 14px; box-sizing: border-box; background: var(--bg); border: 1px solid var(--line); border-radius: 14px; box-shadow: 0 10px 30px rgba(0,0,0,.25); }
.right .panel { right: 0; } .left .panel { left: 0; }
.panel[hidden] { display: none; }
.header { display: flex; align-items: center; justify-content: space-between; gap: 8px; }
h2 { margin: 0; font-size: 17px; }
.close { padding: 2px 10px; font-size: 20px; line-height: 1.2; }
.status { margin: 0; color: var(--muted); font-size: 14px; }
.problem { margin: 0; padding: 8px 10px; border-radius: 8px; background: #fef2f2; color: #991b1b; font-size: 14px; }
.problem[hidden] { display: none; }
.stand-ins { margin: 0; padding: 4px 10px; border-radius: 8px; border: 1px solid #b45309; background: #fffbeb; color: #111827; font-size: 13px; line-height: 1.35; }
.stand-ins[hidden] { display: none; }
.stand-ins p { margin: 0; }
.stand-ins-line { display: inline; }
.stand-ins-more { display: inline; }
.stand-ins-more[open] { display: block; margin-top: 4px; }
.stand-ins summary { display: inline; cursor: pointer; color: #92400e; text-decoration: underline; margin-left: 4px; white-space: nowrap; }
.stand-ins summary::-webkit-details-marker { display: none; }
.stand-ins summary:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
.stand-ins-text { margin-top: 4px; }
.log { flex: 1; min-height: 120px; overflow-y: auto; display: flex; flex-direction: column; gap: 6px; padding: 4px; }
.line { margin: 0; padding: 6px 10px; border-radius: 10px; max-width: 85%; }
.line.agent { background: var(--agent-bg); align-self: flex-start; }
.line.user { background: var(--accent); color: #fff; align-self: flex-end; }
.line[data-final="false"] { opacity: .8; }
.who { font-weight: 600; }
.controls { display: flex; gap: 8px; flex-wrap: wrap; }
.controls [hidden], .controls[hidden] { display: none; }
.call { background: var(--accent); color: #fff; border-color: var(--accent); flex: 1; }
.hangup { background: #b91c1c; color: #fff; border-color: #b91c1c; }
.compose { display: flex; gap: 8px; margin: 0; }
.compose[hidden] { display: none; }
textarea { flex: 1; font: inherit; color: var(--fg); background: var(--bg); border: 1px solid var(--muted); border-radius: 8px; padding: 7px 10px; resize: none; min-height: 22px; max-height: 96px; }
textarea:focus-visible { outline: 3px solid var(--accent); outline-offset: 1px; }
.send { background: var(--accent); color: #fff; border-color: var(--accent); }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

/** What each simulated capability is called in the panel's one-line notice. */
export const STAND_IN_NOUNS = { stt: 'speech recognition', llm: 'the model', tts: 'the voice', telephony: 'phone calls' };

export const END_REASONS = {
  customer_hangup: 'You ended the call.',
  agent_hangup: 'The agent ended the call.',
  max_duration: 'The call reached its time limit.',
  silence_timeout: 'The call ended after a long silence.',
  ended_by_api: 'The call was ended.',
  error: 'The call ended because of a problem on our side.',
  connection_lost: 'The connection was lost. Start a new call to talk again.',
};
/** Refusals and failures, for a visitor (the codes are the API's, docs/widget.md). */
export const PROBLEMS = {
  origin_not_allowed: 'This assistant is not available on this site.',
  full_key_in_page: 'This assistant is not set up correctly (the site uses the wrong kind of key).',
  agent_not_allowed: 'This assistant is not available on this site.',
  unauthorized: 'This assistant is not set up correctly (its key is not valid).',
  not_found: 'This assistant is not available.',
  insufficient_credits: 'The agent is unavailable right now. Please try again later.',
  // The wait is the API's own (details[0].retryAfterSeconds): a place frees by then at the latest.
  rate_limited: (seconds) => `Too many conversations right now. Please try again ${!(seconds > 1) ? 'in a moment' : seconds < 90 ? `in ${seconds} seconds` : `in about ${Math.round(seconds / 60)} minutes`}.`,
  unavailable: 'The agent is unavailable right now. Please try again in a few minutes.',
  network: 'The assistant could not be reached. Check your connection and try again.',
  message_too_long: 'That message is too long. Please shorten it.',
  reply_failed: 'Sorry, the agent could not answer that. Please try again.',
};
export const CHAT_ENDED = { agent_hangup: 'The agent ended the chat.', silence_timeout: 'The chat ended after a long pause.', max_duration: 'The chat reached its time limit.' };
