/**
 * The `openai` SDK for embeddings, in one module so the Lambdas that embed (a knowledge query, the ingestion
 * consumer) build it into a file of their own beside their bundles and load it on first use
 * (./openai.ts, loadEmbeddingsLibs): the SDK is ~350 KB, more than half the bundle budget.
 */
export { default as OpenAI } from 'openai';
