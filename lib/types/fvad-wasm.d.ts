/** `@echogarden/fvad-wasm` ships no types: its default export is the Emscripten module factory. */
declare module '@echogarden/fvad-wasm' {
  const factory: (options?: Record<string, unknown>) => Promise<unknown>;
  export default factory;
}
