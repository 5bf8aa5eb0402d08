import { PROBLEMS, STAND_IN_NOUNS, STYLES } from './text.js';

/**
 * The widget's panel: a host element whose open shadow root holds everything (styles cannot leak either way),
 * the conversation view both the call and the chat write into, the status line, problems, the modal focus
 * rules and the events a page listens to. The call and the chat get this `ui`, never each other.
 */
export function createPanel(config) {
  const voiceOn = config.mode !== 'chat';
  const chatOn = config.mode !== 'voice';
  const host = document.createElement('div');
  host.setAttribute('data-voice-agent-widget', '');
  const root = host.attachShadow({ mode: 'open' });
  // A constructed stylesheet: a host page's strict `style-src` governs <style> elements, not CSSOM sheets.
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(STYLES.replace(/--accent-value/g, config.accent));
  root.adoptedStyleSheets = [sheet];
  const el = (tag, attrs = {}, text) => {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    return node;
  };
  /**
   * The launcher's icon, drawn (an SVG built node by node: no markup parsed, nothing for a CSP to block)
   * rather than an emoji, which shows as an empty box where the visitor has no emoji font: a microphone,
   * or a speech bubble when the widget only chats.
   */
  const ICON_PATHS = config.mode === 'chat'
    ? ['M4 5h16v11H9l-5 4z']
    : ['M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3z', 'M5 11a7 7 0 0 0 14 0', 'M12 18v3'];
  const launcherIcon = () => {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    for (const [k, v] of Object.entries({ viewBox: '0 0 24 24', width: '26', height: '26', 'aria-hidden': 'true', focusable: 'false', fill: 'none', stroke: 'currentColor', 'stroke-width': '2', 'stroke-linecap': 'round' })) svg.setAttribute(k, v);
    for (const d of ICON_PATHS) {
      const path = document.createElementNS(ns, 'path');
      path.setAttribute('d', d);
      svg.append(path);
    }
    return svg;
  };
  const wrap = el('div', { class: `wrap ${config.position} theme-${config.theme}` });
  const launcher = el('button', { class: 'launcher', type: 'button', 'aria-expanded': 'false', 'aria-controls': 'panel', 'aria-label': config.title });
  launcher.append(launcherIcon());
  const panel = el('div', { class: 'panel', id: 'panel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'title', hidden: '' });
  const header = el('div', { class: 'header' });
  const close = el('button', { class: 'close', type: 'button', 'aria-label': 'Close' }, '\u00d7');
  header.append(el('h2', { id: 'title' }, config.title), close);
  const status = el('p', { class: 'status', role: 'status' }, 'Ready.');
  const log = el('div', { class: 'log', role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation', tabindex: '0' });
  const problem = el('p', { class: 'problem', role: 'alert', hidden: '' });
  // The agent's simulated vendors, when the session answer names any (docs/widget.md): one short line, the
  // answer's whole message behind a native disclosure (keyboard and screen readers know <details>).
  const standIns = el('div', { class: 'stand-ins', hidden: '' });
  const standInsLine = el('p', { class: 'stand-ins-line' });
  const standInsMore = el('details', { class: 'stand-ins-more' });
  const standInsText = el('p', { class: 'stand-ins-text' });
  standInsMore.append(el('summary', {}, 'Details'), standInsText);
  standIns.append(standInsLine, standInsMore);
  const controls = el('div', { class: 'controls' });
  const callButton = el('button', { class: 'call', type: 'button' }, 'Start a call');
  const muteButton = el('button', { class: 'mute', type: 'button', 'aria-pressed': 'false', hidden: '' }, 'Mute');
  const hangupButton = el('button', { class: 'hangup', type: 'button', hidden: '' }, 'Hang up');
  controls.append(callButton, muteButton, hangupButton);
  controls.hidden = !voiceOn;
  const compose = el('form', { class: 'compose', hidden: '' });
  const input = el('textarea', { class: 'input', id: 'message', rows: '1', maxlength: '2000', placeholder: 'Type a message…', autocomplete: 'off' });
  const sendButton = el('button', { class: 'send', type: 'submit' }, 'Send');
  compose.append(el('label', { class: 'sr-only', for: 'message' }, 'Message'), input, sendButton);
  compose.hidden = !chatOn;
  panel.append(header, status, standIns, problem, log, compose, controls);
  wrap.append(launcher, panel);
  root.append(wrap);

  const listeners = new Map();
  const emit = (name, detail) => {
    for (const fn of listeners.get(name) ?? []) {
      try { fn(detail); } catch (error) { setTimeout(() => { throw error; }); }
    }
  };
  const stats = { state: 'idle', agentState: '', samplesPlayed: 0, outputRms: 0, framesSent: 0, marksEchoed: 0, chatState: '', chatDeltas: 0 };

  function setStatus(state, text) {
    stats.state = state;
    wrap.dataset.state = state;
    status.textContent = text;
  }

  /** Shows a problem: our wording for a known code, else the server's; `own` prefers the server's (chat errors are worded for visitors). */
  function showProblem(code, message, own = false, waitSeconds = undefined) {
    const known = typeof PROBLEMS[code] === 'function' ? PROBLEMS[code](waitSeconds) : PROBLEMS[code];
    problem.textContent = (own && message) || known || message || 'Something went wrong. Please try again.';
    problem.dataset.code = code;
    problem.hidden = false;
    emit('error', { code, message: problem.textContent });
  }

  /**
   * Says what of the agent is simulated (the session answer's `standIns`): which capabilities in one line,
   * and under "Details" the answer's message, with the key that makes each real.
   */
  function showStandIns(notice) {
    if (!notice || typeof notice.message !== 'string') return;
    const parts = Array.isArray(notice.parts) ? notice.parts : [];
    const named = [...new Set(parts.map((p) => STAND_IN_NOUNS[p.capability]).filter(Boolean))];
    const list = named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : named[0];
    standInsLine.textContent = list ? `Simulated locally: ${list}.` : 'Simulated locally.';
    standInsText.textContent = notice.message;
    standIns.hidden = false;
  }

  /** A line of the conversation; an interim caption is replaced in place by its final version. */
  function addLine(role, text, final = true) {
    const line = log.querySelector(`p[data-role="${role}"][data-final="false"]:not([data-turn])`) || newLine(role);
    line.dataset.final = String(final);
    line.querySelector('.words').textContent = text;
    log.scrollTop = log.scrollHeight;
    if (final) emit('message', { role, text });
  }

  function newLine(role, turn) {
    const line = el('p', { class: `line ${role}`, 'data-role': role });
    if (turn !== undefined) line.dataset.turn = String(turn);
    line.append(el('span', { class: 'who' }, role === 'agent' ? `${ui.agentName}: ` : 'You: '), el('span', { class: 'words' }));
    log.append(line);
    while (log.children.length > 100) log.firstElementChild.remove();
    return line;
  }

  let lastFocus;

  function open() {
    if (!panel.hidden) return;
    lastFocus = document.activeElement;
    panel.hidden = false;
    launcher.setAttribute('aria-expanded', 'true');
    if (config.greeting && log.children.length === 0) addLine('agent', config.greeting);
    (chatOn ? input : callButton.hidden ? close : callButton).focus();
    emit('open');
  }

  function closePanel() {
    if (panel.hidden) return;
    panel.hidden = true;
    launcher.setAttribute('aria-expanded', 'false');
    // Back to what had focus before, unless that was the widget itself (its launcher was clicked).
    (lastFocus && lastFocus !== document.body && lastFocus !== host ? lastFocus : launcher).focus();
    emit('close');
  }

  /** The panel is modal: Tab and Shift+Tab cycle inside it, Escape closes it. */
  function trapFocus(event) {
    if (event.key === 'Escape') {
      event.preventDefault();
      closePanel();
      return;
    }
    if (event.key !== 'Tab') return;
    const focusable = [...panel.querySelectorAll('button, summary, [tabindex="0"], textarea, input')].filter((n) => !n.closest('[hidden]') && !n.disabled);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    if (event.shiftKey && root.activeElement === first) { event.preventDefault(); last.focus(); }
    else if (!event.shiftKey && root.activeElement === last) { event.preventDefault(); first.focus(); }
  }


  const ui = {
    host, root, wrap, launcher, panel, close, status, standIns, showStandIns, log, problem, callButton, muteButton, hangupButton, compose, input, sendButton,
    el, listeners, emit, stats, setStatus, showProblem, addLine, newLine, open, closePanel, trapFocus,
    /** The agent's name as the session gave it: the conversation's lines are signed with it. */
    agentName: 'Agent',
  };
  return ui;
}
