/**
 * The SSRF guard for tool calls lives in lib/outbound/target-guard.ts, shared with webhook deliveries; this
 * module keeps the tools' import path.
 */
export {
  isAllowedHost,
  isForbiddenAddress,
  pinnedLookup,
  resolveToolTarget,
  ToolTargetRefusedError,
  type Resolver,
  type ResolvedTarget,
} from '../../../lib/outbound/target-guard.js';
