/**
 * The contract between the CDK stack and the docs handler (functions/docs/page.ts) about the swagger-ui files.
 * The stack copies these files from node_modules/swagger-ui-dist into `docs-assets/` beside the Lambda bundle
 * (index.mjs), because a bundle carries only what is imported and these are served as files. The handler reads
 * them from there, and from node_modules/swagger-ui-dist when run unbundled (`npm start`, tests).
 * No CDK import here: the handler may import this module without pulling aws-cdk-lib into its bundle.
 */
export const DOCS_ASSETS_DIR = 'docs-assets';

/** The swagger-ui-dist files the docs page serves (BaseLayout needs no standalone preset). */
export const DOCS_ASSET_FILES = ['swagger-ui-bundle.js', 'swagger-ui.css'] as const;

/** Where the files come from, relative to the project root. */
export const DOCS_ASSETS_SOURCE = 'node_modules/swagger-ui-dist';
