/**
 * Prints the size of the workflow bundle (`bundleWorkflowCode`, as src/server/build-workflow-bundles.ts builds it)
 * and the bytes each npm package takes in it: what docs/development.md's bundle figures are measured with.
 */
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { workflowBundleOptions } from '../src/server/workflow-bundle-options';

/** @returns the bundle's bytes, its code's (without the inline source map), and each package's code bytes. */
export async function workflowBundleSize(): Promise<{
  bytes: number;
  codeBytes: number;
  packages: Record<string, number>;
}> {
  const { code: bundle } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../src/workflows'),
    ...workflowBundleOptions,
    logger: new DefaultLogger('WARN'),
  });
  // The bundle ends with its source map inline; the code is what a worker's V8 context compiles.
  const mapAt = bundle.lastIndexOf('\n//# sourceMappingURL=');
  const code = mapAt < 0 ? bundle : bundle.slice(0, mapAt);
  const packages: Record<string, number> = {};
  // webpack's development output starts each module with `/***/ "<path>":`.
  const starts = [...code.matchAll(/^\/\*\*\*\/ "([^"]+)"/gm)];
  starts.forEach((m, i) => {
    const at = m[1]!.lastIndexOf('node_modules/');
    const parts = at < 0 ? ['(ours)'] : m[1]!.slice(at + 'node_modules/'.length).split('/');
    const name = parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    const end = i + 1 < starts.length ? starts[i + 1]!.index : code.length;
    packages[name] = (packages[name] ?? 0) + Buffer.byteLength(code.slice(m.index, end));
  });
  return { bytes: Buffer.byteLength(bundle), codeBytes: Buffer.byteLength(code), packages };
}

if (require.main === module) {
  workflowBundleSize().then(
    (size) => console.log(JSON.stringify(size, null, 2)),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    }
  );
}
