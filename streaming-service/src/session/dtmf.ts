import type { DtmfShortcut } from '../../../lib/domain/agent.js';

/**
 * Keys the caller presses (Twilio's `dtmf` messages), docs/telephony.md "DTMF". A key the agent defines
 * as a shortcut acts at once (transfer, hang up), without asking the model. Other keys are collected into
 * one entry (people type account numbers key by key) and reach the model as a user turn, "[The caller
 * pressed 1 2 3 on the keypad]", once `#` is pressed or no key came for {@link KEY_GAP_MS}.
 */

/**
 * Pause that ends a key sequence: Twilio's own `<Gather>` waits 5 s by default, which feels slow with an
 * agent on the line; handsets send keys well under a second apart when someone types a number.
 */
export const KEY_GAP_MS = 1_500;
/** A sequence longer than this is cut into turns (nobody types more in one go; a stuck key does). */
const MAX_KEYS = 32;

export interface KeypadActions {
  /** A shortcut key was pressed (first key of a sequence). */
  shortcut(key: string, shortcut: DtmfShortcut): void;
  /** Keys for the model, as a user turn. */
  input(text: string): void;
}

export class Keypad {
  private keys: string[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly shortcuts: Readonly<Record<string, DtmfShortcut>>,
    private readonly actions: KeypadActions,
    private readonly gapMs: number = KEY_GAP_MS,
  ) {}

  press(key: string): void {
    // A shortcut counts only as the first key: inside a typed number, 0 is a digit, not "operator".
    const shortcut = this.keys.length === 0 ? this.shortcuts[key] : undefined;
    if (shortcut) return this.actions.shortcut(key, shortcut);
    this.keys.push(key);
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (key === '#' || this.keys.length >= MAX_KEYS) return this.flush();
    this.timer = setTimeout(() => this.flush(), this.gapMs);
    this.timer.unref?.();
  }

  /** Ends the call's keypad: pending keys are dropped (the call is over). */
  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.keys = [];
  }

  private flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const keys = this.keys;
    this.keys = [];
    if (keys.length > 0) this.actions.input(keypadTurn(keys));
  }
}

/** How keys read to the model: unambiguous, and clearly not something the caller said. */
export const keypadTurn = (keys: readonly string[]) => `[The caller pressed ${keys.join(' ')} on the keypad]`;
