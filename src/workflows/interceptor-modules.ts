/**
 * The workflow interceptor modules every worker of the conversation workflow loads (`interceptors.workflowModules`,
 * or `workflowInterceptorModules` when bundling). Not workflow code: read by the worker when it bundles.
 */
export const workflowInterceptorModules: string[] = [require.resolve('./oversized-updates')];
