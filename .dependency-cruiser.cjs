/**
 * The project's architecture, checked by dependency-cruiser in `npm test` (test/offline/architecture.test.ts)
 * and by hand with `npx depcruise lib streaming-service/src functions bin bench test`. docs/architecture.md
 * explains the layers these rules keep apart. There is no exception list: a rule that needs one is a rule to
 * change, in this file and in that doc.
 */

/** Vendor and cloud SDKs: what the domain must not know about. */
const SDKS = [
  '@aws-sdk',
  'aws-cdk-lib',
  'constructs',
  'aws-jwt-verify',
  '@middy',
  'twilio',
  'openai',
  '@anthropic-ai',
  '@deepgram',
  '@elevenlabs',
  '@cartesia',
  '@google',
  '@speechmatics',
  'assemblyai',
  'ws',
  'busboy',
  'standardwebhooks',
];
const sdkPath = `node_modules/(${SDKS.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import circle: two modules that each need the other are one module, or want a third they both import.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'lib-not-container',
      comment:
        'lib/ is what the Lambda functions and the container share; the container (streaming-service/) builds on it, never the reverse. ' +
        'The one exception is structural, not a list: the local composition root, which starts the container in-process for `npm start`.',
      severity: 'error',
      from: { path: '^lib/', pathNot: '^lib/local/platform/' },
      to: { path: '^streaming-service/' },
    },
    {
      name: 'domain-pure',
      comment: 'lib/domain/ holds the rules and shapes: no AWS, HTTP or vendor SDK, and no layer above it.',
      severity: 'error',
      from: { path: '^lib/domain/' },
      to: { path: [sdkPath, '^lib/(http|store|services|vendors|infra|local|web|observability)/', '^streaming-service/', '^functions/'] },
    },
    {
      name: 'domain-no-network',
      comment: 'The domain does not speak HTTP.',
      severity: 'error',
      from: { path: '^lib/domain/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?(http|https|http2|tls)$' },
    },
    {
      name: 'services-no-aws-sdk',
      comment: 'Use cases reach AWS through lib/store/ and lib/vendors/ adapters, so they run on any store the adapters speak to.',
      severity: 'error',
      from: { path: '^lib/services/' },
      to: { path: 'node_modules/@aws-sdk/' },
    },
    {
      name: 'lib-not-handlers',
      comment:
        'functions/ are the Lambda entry points: nothing in lib/ or the container builds on them, but the local composition root, ' +
        'which serves them in-process for `npm start`.',
      severity: 'error',
      from: { path: '^(lib|streaming-service)/', pathNot: '^lib/local/platform/' },
      to: { path: '^functions/' },
    },
    {
      name: 'production-not-tests',
      comment: 'Production code never imports tests, benchmarks or their support.',
      severity: 'error',
      from: { path: '^(lib|streaming-service|functions)/' },
      to: { path: '^(test|bench)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    // The fixture tree breaks every rule on purpose: the architecture test checks the rules catch it.
    exclude: { path: ['(^|/)(cdk\\.out|dist)/', '^test/fixtures/'] },
  },
};
