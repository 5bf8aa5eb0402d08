/**
 * Local voice-activity detection on the caller's audio: WebRTC's VAD (libfvad compiled to WASM, shipped in
 * the `@echogarden/fvad-wasm` package with its `.wasm`, so it loads offline), with onset and hangover
 * smoothing on top. It lets the session see that the caller is talking within a frame or two, instead of
 * waiting on the STT vendor's events, and tells how long they have been talking (the interruption policy's
 * minimum duration). Transport-neutral: it takes 16-bit PCM at 8, 16, 32 or 48 kHz.
 */
import fvad from '@echogarden/fvad-wasm';
import { FrameCutter, rms } from '../../../lib/vendors/shared/pcm.js';

/** The WASM module's exports this file uses (Emscripten names). */
interface FvadModule {
  _fvad_new(): number;
  _fvad_free(inst: number): void;
  _fvad_set_mode(inst: number, mode: number): number;
  _fvad_set_sample_rate(inst: number, rate: number): number;
  _fvad_process(inst: number, frame: number, length: number): number;
  _malloc(bytes: number): number;
  _free(ptr: number): void;
  /** Re-read on every use: it is replaced when WASM memory grows. */
  HEAP16: Int16Array;
}

let loaded: Promise<FvadModule> | undefined;

/** The WASM module, instantiated once per process and shared by every call (each gets its own state). */
export function loadFvad(): Promise<FvadModule> {
  loaded ??= fvad() as Promise<FvadModule>;
  return loaded;
}

export interface VadOptions {
  /**
   * WebRTC VAD aggressiveness, 0-3. 3 ("very aggressive") rejects the most non-speech (line hiss, hum,
   * music on a phone line); what it misses is caught by the policy's minimum words.
   */
  readonly mode: 0 | 1 | 2 | 3;
  /** Analysis frame: 20 ms is Twilio's packet size and one of the three frame sizes WebRTC VAD accepts. */
  readonly frameMs: 10 | 20 | 30;
  /** Voiced audio needed before speech is declared, so one click or a lip smack is not speech. */
  readonly onsetMs: number;
  /** Unvoiced audio inside speech (pauses between words) before speech is declared over. */
  readonly hangoverMs: number;
  /**
   * Level (16-bit RMS) a frame needs besides WebRTC's verdict. WebRTC VAD is nearly level-blind: it calls
   * speech 30 dB down "speech", and that is where the agent's own voice comes back as line echo. 300 is
   * about -40 dBFS: under any caller talking into a phone (-30 to -15 dBFS), over echo and line noise.
   */
  readonly minRms: number;
}

/**
 * 60 ms of onset (three frames) ignores clicks; 300 ms of hangover spans the gaps between words and short
 * breaths without ending speech, and is well under the 1.5 s false-interruption timeout that follows it.
 */
export const DEFAULT_VAD_OPTIONS = { mode: 3, frameMs: 20, onsetMs: 60, hangoverMs: 300, minRms: 300 } as const satisfies VadOptions;

/** What one push of audio changed. Times are ms of caller audio since the detector started. */
export type VadEvent =
  | { readonly type: 'speech_start'; readonly atAudioMs: number }
  | { readonly type: 'speech_end'; readonly atAudioMs: number; readonly speechMs: number };

/**
 * One caller's detector. Feed it PCM in any chunk size (it carries the remainder between pushes); free it
 * when the call ends, the WASM heap is shared.
 */
export class VoiceActivity {
  private readonly inst: number;
  private readonly buf: number;
  private readonly frameSamples: number;
  private readonly cutter: FrameCutter;
  private frames = 0;
  private voicedRun = 0;
  private unvoicedRun = 0;
  private speaking = false;
  private speechStartMs = 0;
  private lastVoicedEndMs = 0;
  private freed = false;
  readonly options: VadOptions;

  constructor(
    private readonly mod: FvadModule,
    readonly sampleRate: 8_000 | 16_000 | 32_000 | 48_000,
    options: Partial<VadOptions> = {},
  ) {
    this.options = { ...DEFAULT_VAD_OPTIONS, ...options };
    this.frameSamples = (sampleRate * this.options.frameMs) / 1_000;
    this.cutter = new FrameCutter(this.frameSamples);
    this.inst = mod._fvad_new();
    if (!this.inst) throw new Error('fvad_new failed');
    if (mod._fvad_set_sample_rate(this.inst, sampleRate) !== 0 || mod._fvad_set_mode(this.inst, this.options.mode) !== 0) {
      mod._fvad_free(this.inst);
      throw new Error(`fvad rejected ${sampleRate} Hz / mode ${this.options.mode}`);
    }
    this.buf = mod._malloc(this.frameSamples * 2);
  }

  /** Whether the caller is talking now (speech confirmed, hangover not run out). */
  get inSpeech(): boolean {
    return this.speaking;
  }

  /** Voiced-or-bridged audio in the current speech segment so far; 0 when not in speech. */
  get speechMs(): number {
    return this.speaking ? this.lastVoicedEndMs - this.speechStartMs : 0;
  }

  /** Analyses the samples; returns the speech starts and ends they contained, in order. */
  push(samples: Int16Array): VadEvent[] {
    const events: VadEvent[] = [];
    if (this.freed) return events;
    this.cutter.push(samples, (frame) => this.analyse(frame, events));
    return events;
  }

  free(): void {
    if (this.freed) return;
    this.freed = true;
    this.mod._free(this.buf);
    this.mod._fvad_free(this.inst);
  }

  private analyse(frame: Int16Array, events: VadEvent[]): void {
    const { frameMs, onsetMs, hangoverMs, minRms } = this.options;
    this.mod.HEAP16.set(frame, this.buf >> 1);
    // WebRTC runs on every frame (its noise model adapts on quiet ones too); the level gate comes after.
    const voiced = this.mod._fvad_process(this.inst, this.buf, this.frameSamples) === 1 && rms(frame) >= minRms;
    const startMs = this.frames * frameMs;
    this.frames += 1;
    if (voiced) {
      if (this.voicedRun === 0 && !this.speaking) this.speechStartMs = startMs;
      this.voicedRun += frameMs;
      this.unvoicedRun = 0;
      this.lastVoicedEndMs = startMs + frameMs;
      if (!this.speaking && this.voicedRun >= onsetMs) {
        this.speaking = true;
        events.push({ type: 'speech_start', atAudioMs: this.speechStartMs });
      }
      return;
    }
    this.voicedRun = 0;
    this.unvoicedRun += frameMs;
    if (this.speaking && this.unvoicedRun >= hangoverMs) {
      events.push({ type: 'speech_end', atAudioMs: this.lastVoicedEndMs, speechMs: this.lastVoicedEndMs - this.speechStartMs });
      this.speaking = false;
    }
  }
}
