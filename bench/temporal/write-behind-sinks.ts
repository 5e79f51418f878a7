/**
 * The worker side of the write-behind baseline's sink (`writeBehindWorkflow`): archives the messages under the
 * workflow id and counts them with the default model's tokenizer, as `ingest` does, but after the workflow task and
 * outside any activity. Errors are dropped: the baseline measures the cost of the work, not its guarantees.
 */
import type { InjectedSinks } from '@temporalio/worker';
import type { ConversationArchive } from '../../src/archive/archive';
import { defaultSettings } from '../../src/contract/settings';
import { createTokenCounter } from '../../src/tokens';
import type { WriteBehindSinks } from './workflows';

/** @returns the sinks to merge into the worker's. */
export function writeBehindSinks(archive: ConversationArchive): InjectedSinks<WriteBehindSinks> {
  const counter = createTokenCounter({ model: defaultSettings.model });
  return {
    benchArchive: {
      write: {
        fn: (info, firstSeq, messages) => {
          void archive
            .append(info.workflowId, firstSeq, messages)
            .then(() => counter.countMessages(messages, 'chat'))
            .catch(() => undefined);
        },
        callDuringReplay: false,
      },
    },
  };
}
