import { post } from './post.js';
import { CHAT_ENDED } from './text.js';

/**
 * The text chat: POST /widget/chat on the first message, then /web-chat (docs/chat.md). The chat's session
 * is kept in this tab's sessionStorage, so a reload reconnects to the same conversation. While a call runs
 * (`isCallActive`) the status line is the call's.
 */
export function createChat(ui, config, base, isCallActive) {
  const chatOn = config.mode !== 'voice';
  const STORE_KEY = `voice-agent-widget:chat:${config.agentId}`;
  const chat = { socket: undefined, session: undefined, ready: false, connecting: false, outbox: [] };
  /** sessionStorage can throw (a sandboxed frame, storage off): the chat then just does not survive a reload. */
  const saved = () => { try { return JSON.parse(sessionStorage.getItem(STORE_KEY) || 'null'); } catch { return null; } };
  const remember = (session) => { try { if (session) sessionStorage.setItem(STORE_KEY, JSON.stringify(session)); else sessionStorage.removeItem(STORE_KEY); } catch { /* not kept */ } };
  const chatBusy = () => isCallActive();

  /** A chat line: the agent's by reply turn (deltas grow it), or the visitor's. */
  function chatLine(role, text, turn) {
    const line = (turn !== undefined && ui.log.querySelector(`p[data-turn="${turn}"]`)) || ui.newLine(role, turn);
    line.dataset.chat = '';
    if (text !== undefined) line.querySelector('.words').textContent = text;
    ui.log.scrollTop = ui.log.scrollHeight;
    return line;
  }

  function sendMessage(text) {
    const message = String(text ?? '').trim();
    if (!message || !chatOn) return;
    ui.problem.hidden = true;
    chatLine('user', message).dataset.pending = '';
    ui.emit('message', { role: 'user', text: message });
    chat.outbox.push(message);
    if (chat.ready) flush();
    else void openChat();
  }

  function flush() {
    while (chat.outbox.length > 0) chat.socket.send(JSON.stringify({ type: 'message', text: chat.outbox.shift() }));
  }

  /** The visitor's unsent or unanswered lines are dropped when the chat refused them: nothing was kept. */
  function dropPending(all) {
    const pending = [...ui.log.querySelectorAll('p[data-pending]')];
    for (const line of all ? pending : pending.slice(-1)) line.remove();
  }

  async function openChat() {
    if (chat.socket || chat.connecting) return;
    chat.connecting = true;
    let session = chat.session || saved();
    if (!session) {
      if (!chatBusy()) ui.setStatus('connecting', 'Connecting…');
      try {
        session = await post(base, '/widget/chat', { apiKey: config.apiKey, agentId: config.agentId });
      } catch (error) {
        chat.connecting = false;
        chat.outbox = [];
        dropPending(true);
        ui.setStatus('error', 'The chat could not start.');
        ui.showProblem(error.code || 'unavailable', error.message, false, error.waitSeconds);
        return;
      }
      remember(session);
    }
    chat.session = session;
    chat.connecting = false;
    // The chat's model may be simulated (`npm start`): the panel says so, as for a call.
    ui.showStandIns(session.standIns);
    const socket = new WebSocket(session.chatUrl);
    chat.socket = socket;
    socket.onopen = () => socket.send(JSON.stringify({ type: 'hello', credential: session.credential }));
    socket.onmessage = (event) => { if (chat.socket === socket) onChat(JSON.parse(event.data)); };
    socket.onclose = () => {
      if (chat.socket !== socket) return;
      chat.socket = undefined;
      chat.ready = false;
    };
  }

  /** The chat is over or its session unusable: the next message starts a new one. */
  function forgetChat() {
    remember(null);
    const socket = chat.socket;
    Object.assign(chat, { socket: undefined, session: undefined, ready: false });
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
  }

  function onChat(m) {
    switch (m.type) {
      case 'ready': {
        chat.ready = true;
        ui.agentName = m.agentName || ui.agentName;
        // The conversation as the service has it (after a reload: all of it), before the lines not sent yet.
        for (const line of ui.log.querySelectorAll('p[data-chat]:not([data-pending])')) line.remove();
        const first = ui.log.querySelector('p[data-pending]');
        for (const line of m.messages || []) ui.log.insertBefore(chatLine(line.role === 'user' ? 'user' : 'agent', String(line.text)), first);
        ui.log.scrollTop = ui.log.scrollHeight;
        if (!m.resumed) ui.emit('chat-start', { chatId: m.chatId });
        if (!chatBusy()) ui.setStatus('ready', `Chatting with ${ui.agentName}.`);
        flush();
        break;
      }
      case 'agent':
        // A handoff (docs/handoffs.md): the lines from here carry the new agent's name.
        ui.agentName = m.agentName || ui.agentName;
        if (!chatBusy()) ui.setStatus('ready', `Chatting with ${ui.agentName}.`);
        break;
      case 'delta': {
        const line = chatLine('agent', undefined, m.turn);
        line.dataset.final = 'false';
        line.querySelector('.words').textContent += String(m.text ?? '');
        ui.stats.chatDeltas += 1;
        // Read out once whole, not word by word.
        ui.log.setAttribute('aria-busy', 'true');
        break;
      }
      case 'reply': {
        for (const line of ui.log.querySelectorAll('p[data-pending]')) delete line.dataset.pending;
        const line = chatLine('agent', String(m.text ?? ''), m.turn);
        line.dataset.final = 'true';
        ui.log.setAttribute('aria-busy', 'false');
        if (m.text) ui.emit('message', { role: 'agent', text: String(m.text) });
        else line.remove();
        break;
      }
      case 'state':
        ui.stats.chatState = String(m.state);
        if (!chatBusy()) ui.setStatus(m.state === 'thinking' ? 'typing' : 'ready', m.state === 'thinking' ? `${ui.agentName} is typing…` : `Chatting with ${ui.agentName}.`);
        break;
      case 'ended':
        forgetChat();
        if (!chatBusy()) ui.setStatus('ended', CHAT_ENDED[m.reason] || 'The chat has ended.');
        ui.emit('chat-end', { reason: m.reason });
        break;
      case 'error': {
        const code = String(m.code ?? 'unavailable');
        ui.log.setAttribute('aria-busy', 'false');
        if (['bad_credential', 'ended', 'already_connected', 'replaced'].includes(code)) {
          // The saved chat is gone (it ended while the tab was away): messages waiting start a new one.
          forgetChat();
          if (chat.outbox.length > 0) void openChat();
          break;
        }
        if (code !== 'reply_failed') dropPending(false);
        ui.showProblem(code, m.message, code !== 'insufficient_credits');
        break;
      }
      default: break;
    }
  }

  return { chat, sendMessage, openChat, saved };
}
