// The failure converter of an encrypting worker's workflow bundle and clients: failure messages and stack traces go
// into an encoded payload (so the codec encrypts them) instead of plain Failure fields. Failure types stay readable.
import { DefaultFailureConverter } from '@temporalio/common';

export const failureConverter = new DefaultFailureConverter({ encodeCommonAttributes: true });
