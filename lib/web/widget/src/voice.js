import { post } from './post.js';
import { END_REASONS } from './text.js';

/**
 * The voice call: POST /widget/session, then /web-stream (docs/meeting.md's wire protocol), with the meeting
 * page's audio module and socket client loaded from our origin on the first call. It writes into the panel
 * (`ui`, panel.js) and nothing else.
 */
export function createVoice(ui, config, base) {
  const call = { client: undefined, socket: undefined, audio: undefined, stream: undefined, admitted: false, muted: false, active: false };

  async function startCall() {
    if (call.active) return;
    ui.open();
    call.active = true;
    ui.problem.hidden = true;
    ui.callButton.disabled = true;
    ui.setStatus('connecting', 'Connecting…');
    try {
      const [media, client] = await Promise.all([import(`${base}/meeting/assets/meeting-media.js`), import(`${base}/meeting/assets/web-call.js`)]);
      call.client = client;
      const missing = media.missingFeatures();
      if (missing.length > 0) throw { code: 'unsupported', message: `Voice calls need ${missing.join(', ')} in this browser.` };
      try {
        call.stream = await media.openMicrophone();
      } catch (error) {
        throw { code: 'microphone', message: media.deviceProblem(error).join(': ') };
      }
      const session = await post(base, '/widget/session', { apiKey: config.apiKey, agentId: config.agentId });
      ui.agentName = session.agentName || ui.agentName;
      ui.showStandIns(session.standIns);
      call.audio = new media.AudioEngine();
      call.audio.onMark = (name) => { ui.stats.marksEchoed += 1; send({ type: 'mark', name }); };
      call.audio.onStats = (played, rms) => { ui.stats.samplesPlayed = played; ui.stats.outputRms = rms; };
      await call.audio.start(call.stream, onFrame);
      connect(session);
    } catch (error) {
      endCall();
      ui.setStatus('error', 'The call could not start.');
      ui.showProblem(error.code || 'unavailable', error.message, false, error.waitSeconds);
    }
  }

  function onFrame(frame) {
    const socket = call.socket;
    if (call.admitted && !call.muted && socket && socket.readyState === WebSocket.OPEN) {
      socket.send(frame);
      ui.stats.framesSent += 1;
    }
  }

  const send = (message) => call.client?.sendControl(call.socket, message);

  /** The meeting page's socket client (web-call.js): hello, audio, marks and clear are handled there. */
  function connect(session) {
    call.socket = call.client.openCallSocket(session, call.audio, {
      current: (socket) => socket === call.socket,
      onMessage: (message) => onControl(message, session),
      // Closed without `ended` or `error`: the widget does not rejoin (a new call is one click away).
      onClose: () => finishCall('connection_lost'),
    });
  }

  function onControl(message, session) {
    switch (message.type) {
      case 'ready':
        call.admitted = true;
        ui.agentName = message.agentName || ui.agentName;
        ui.setStatus('live', `Live with ${ui.agentName}.`);
        ui.callButton.hidden = true;
        ui.muteButton.hidden = false;
        ui.hangupButton.hidden = false;
        ui.hangupButton.focus();
        ui.emit('call-start', { callId: session.callId });
        break;
      // A handoff (docs/handoffs.md): lines from here carry the new agent's name.
      case 'agent':
        ui.agentName = message.agentName || ui.agentName;
        if (call.admitted) ui.setStatus('live', `Live with ${ui.agentName}.`); break;
      case 'caption': ui.addLine(message.role === 'agent' ? 'agent' : 'user', String(message.text ?? ''), message.final === true); break;
      case 'state':
        ui.stats.agentState = String(message.state);
        if (call.admitted) ui.setStatus('live', `Live: ${ui.agentName} is ${message.state}.`); break;
      case 'ended': finishCall(String(message.reason ?? 'error')); break;
      case 'error': finishCall(undefined, String(message.code ?? 'unavailable'), message.message); break;
      default: break;
    }
  }

  /** Releases the socket, the microphone and the audio graph. */
  function endCall() {
    const socket = call.socket;
    call.socket = undefined;
    if (socket && socket.readyState <= WebSocket.OPEN) socket.close(1000);
    if (call.stream) for (const track of call.stream.getTracks()) track.stop();
    if (call.audio) call.audio.close();
    Object.assign(call, { stream: undefined, audio: undefined, admitted: false, muted: false, active: false });
    ui.callButton.hidden = false;
    ui.callButton.disabled = false;
    ui.muteButton.hidden = true;
    ui.hangupButton.hidden = true;
    ui.muteButton.setAttribute('aria-pressed', 'false');
    ui.muteButton.textContent = 'Mute';
  }

  function finishCall(reason, code, message) {
    if (!call.active) return;
    const wasAdmitted = call.admitted;
    endCall();
    if (code) {
      ui.setStatus('error', 'The call has ended.');
      ui.showProblem(code, message);
    } else {
      ui.setStatus('ended', END_REASONS[reason] || 'The call has ended.');
    }
    if (wasAdmitted) ui.emit('call-end', { reason: reason || code });
    if (!ui.panel.hidden) ui.callButton.focus();
  }

  function hangUp() {
    send({ type: 'hangup' });
    finishCall('customer_hangup');
  }

  function toggleMute() {
    call.muted = !call.muted;
    for (const track of call.stream?.getAudioTracks() ?? []) track.enabled = !call.muted;
    ui.muteButton.setAttribute('aria-pressed', String(call.muted));
    ui.muteButton.textContent = call.muted ? 'Unmute' : 'Mute';
    send({ type: 'mute', muted: call.muted });
  }

  return { call, startCall, hangUp, toggleMute };
}
