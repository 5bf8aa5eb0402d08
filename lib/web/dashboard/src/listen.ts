import { useEffect, useRef, useState } from 'react';

/**
 * Listening to a live call in the page (docs/live-calls.md, "Listen"): the listen socket's binary frames
 * (byte 0 the channel, a u32 LE time at byte 4, PCM16 LE from byte 8) are played through Web Audio, the
 * caller on the left and the agent on the right, each scheduled back to back on its own clock; its JSON
 * events update the live captions. An `interruption` drops the agent audio queued but not yet played.
 */

export interface LiveCaption {
  readonly role: 'user' | 'agent';
  readonly text: string;
  readonly final: boolean;
}

export interface Listening {
  readonly status: 'idle' | 'connecting' | 'listening' | 'ended' | 'failed';
  /** The captions so far: finals, then the interim one of each side still being spoken. */
  readonly captions: readonly LiveCaption[];
  readonly agentState?: string;
  readonly endReason?: string;
  /** Audio frames received per channel (0 caller, 1 agent): the page shows that both sides arrive. */
  readonly frames: readonly [number, number];
}

/** Played this far behind what arrives: enough for network jitter, short enough to follow the call. */
const JITTER_S = 0.15;

export function useListen(url: string | undefined): Listening {
  const [state, setState] = useState<Listening>({ status: 'idle', captions: [], frames: [0, 0] });
  const sources = useRef<AudioBufferSourceNode[]>([]);
  useEffect(() => {
    if (!url) return undefined;
    setState({ status: 'connecting', captions: [], frames: [0, 0] });
    const audio = new AudioContext();
    const merger = audio.createChannelMerger(2);
    merger.connect(audio.destination);
    const next = [0, 0];
    let rate = 8_000;
    const counts: [number, number] = [0, 0];
    const ws = new WebSocket(url);
    ws.binaryType = 'arraybuffer';
    ws.onmessage = (m: MessageEvent<ArrayBuffer | string>) => {
      if (typeof m.data !== 'string') return play(m.data);
      const event = JSON.parse(m.data) as { type: string; [k: string]: unknown };
      if (event.type === 'start') {
        rate = (event.format as { sampleRate: number }).sampleRate;
        setState((s) => ({ ...s, status: 'listening', agentState: String(event.agentState) }));
      } else if (event.type === 'caption') {
        const caption = { role: event.role, text: event.text, final: event.final } as LiveCaption;
        // A caption replaces its side's interim one, and a final said twice (an utterance cut, then over) once.
        setState((s) => {
          const last = s.captions.findLast((c) => c.role === caption.role);
          const replaces = last !== undefined && (!last.final || last.text === caption.text);
          return { ...s, captions: [...s.captions.filter((c) => !(replaces && c === last)), caption] };
        });
      } else if (event.type === 'state') {
        setState((s) => ({ ...s, agentState: String(event.state) }));
      } else if (event.type === 'interruption') {
        for (const s of sources.current.splice(0)) s.stop();
        next[1] = 0;
      } else if (event.type === 'ended') {
        setState((s) => ({ ...s, status: 'ended', endReason: String(event.reason) }));
      }
    };
    ws.onerror = () => setState((s) => (s.status === 'ended' ? s : { ...s, status: 'failed' }));
    const play = (data: ArrayBuffer) => {
      const view = new DataView(data);
      const channel = view.getUint8(0) === 1 ? 1 : 0;
      const samples = (data.byteLength - 8) >> 1;
      if (samples <= 0) return;
      const buffer = audio.createBuffer(1, samples, rate);
      const out = buffer.getChannelData(0);
      for (let i = 0; i < samples; i += 1) out[i] = view.getInt16(8 + i * 2, true) / 32768;
      const source = audio.createBufferSource();
      source.buffer = buffer;
      source.connect(merger, 0, channel);
      const at = Math.max(audio.currentTime + JITTER_S, next[channel]!);
      source.start(at);
      next[channel] = at + buffer.duration;
      if (channel === 1) {
        sources.current.push(source);
        source.onended = () => (sources.current = sources.current.filter((s) => s !== source));
      }
      counts[channel] += 1;
      // The counts are shown, not used: update them a few times a second, not on every 20 ms frame.
      if ((counts[0] + counts[1]) % 10 === 0) setState((s) => ({ ...s, frames: [counts[0], counts[1]] }));
    };
    return () => {
      ws.close();
      void audio.close();
    };
  }, [url]);
  return state;
}
