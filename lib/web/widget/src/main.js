/**
 * The embeddable widget (docs/widget.md): one `<script src="…/widget/" data-api-key data-agent-id>` tag on
 * any site. A launcher button and a panel in a Shadow DOM (no CSS in or out), one global (`window.VoiceAgentWidget`),
 * a text chat over the streaming service's `/web-chat` (docs/chat.md), and a voice call over `/web-stream`
 * with the meeting page's audio module and worklets (loaded from our origin on the first call). Both write
 * into one conversation view. A classic script, not a module: the one tag needs no
 * `type`, and nothing runs before the page is parsed (`async` is fine).
 *
 * These modules are the source; the served file, lib/web/widget/assets/widget.js, is their bundle (one
 * classic script, built by `npm run build:widget`; test/unit/widget-build.test.ts checks it is current).
 */
import { createChat } from './chat.js';
import { createPanel } from './panel.js';
import { createVoice } from './voice.js';

const script = document.currentScript;
if (script && !window.VoiceAgentWidget) start(script);

/** Reads the tag's settings, builds the panel, and wires the call, the chat and the page's API to it. */
function start(script) {
  const base = new URL(script.src).origin;
  const data = script.dataset;
  const config = {
    apiKey: data.apiKey || '',
    agentId: data.agentId || '',
    position: data.position === 'bottom-left' ? 'left' : 'right',
    theme: ['light', 'dark'].includes(data.theme) ? data.theme : 'auto',
    accent: /^#[0-9a-f]{3,8}$/i.test(data.accent || '') ? data.accent : '#1d4ed8',
    title: data.title || 'Talk to us',
    greeting: data.greeting || '',
    mode: ['voice', 'chat'].includes(data.mode) ? data.mode : 'both',
  };
  const voiceOn = config.mode !== 'chat';
  const chatOn = config.mode !== 'voice';
  const ui = createPanel(config);
  const voice = createVoice(ui, config, base);
  const chats = createChat(ui, config, base, () => voice.call.active);

  ui.compose.onsubmit = (event) => {
    event.preventDefault();
    const text = ui.input.value;
    ui.input.value = '';
    chats.sendMessage(text);
  };
  // Enter sends, Shift+Enter starts a new line (as in every chat box).
  ui.input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      ui.compose.requestSubmit();
    }
  });

  ui.launcher.onclick = () => (ui.panel.hidden ? ui.open() : ui.closePanel());
  ui.close.onclick = ui.closePanel;
  ui.callButton.onclick = voice.startCall;
  ui.muteButton.onclick = voice.toggleMute;
  ui.hangupButton.onclick = voice.hangUp;
  ui.panel.addEventListener('keydown', ui.trapFocus);

  const api = {
    open: ui.open,
    close: ui.closePanel,
    /** Opens the panel and starts a call; in chat mode, opens it at the message box. */
    start: () => (voiceOn ? voice.startCall() : ui.open()),
    /** Sends a chat message as if the visitor typed it. */
    send: (text) => { ui.open(); chats.sendMessage(text); },
    /** Hangs up the call and ends the chat, whichever is running. */
    end: () => {
      if (voice.call.active) voice.hangUp();
      if (chats.chat.socket && chats.chat.ready) chats.chat.socket.send(JSON.stringify({ type: 'end' }));
    },
    on(name, fn) { if (!ui.listeners.has(name)) ui.listeners.set(name, new Set()); ui.listeners.get(name).add(fn); return api; },
    off(name, fn) { ui.listeners.get(name)?.delete(fn); return api; },
    /** Read-only figures for tests and debugging; never the credential. */
    get stats() { return { ...ui.stats }; },
  };
  Object.defineProperty(window, 'VoiceAgentWidget', { value: Object.freeze(api) });

  if (!config.apiKey || !config.agentId) {
    ui.setStatus('error', 'Not set up.');
    ui.showProblem('setup', 'This assistant is not set up: the script tag needs data-api-key and data-agent-id.');
    ui.callButton.disabled = true;
    ui.input.disabled = true;
    ui.sendButton.disabled = true;
  } else if (chatOn && chats.saved()) {
    // A reload in the same tab: the conversation is fetched again at once, so it is there when the panel opens.
    void chats.openChat();
  }
  const mount = () => document.body.append(ui.host);
  if (document.body) mount();
  else document.addEventListener('DOMContentLoaded', mount, { once: true });
}
