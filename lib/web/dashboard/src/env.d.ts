// Vite's ambient types, which say what `import './styles.css'` is in a file Vite bundles.
/// <reference types="vite/client" />
