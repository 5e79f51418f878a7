"""durable-compaction for Python: ``ConversationClient`` over the ``temporalio`` SDK, and the payload codec compatible
with the worker's AES-GCM codec. See docs/client.md ("Using it from Python")."""

from . import errors
from .client import ConversationClient, Prepared
from .codec import AesGcmPayloadCodec, CodecConfigError, PayloadDecryptError, encrypting_data_converter, parse_key_list
from .errors import *  # the errors the client raises, as errors.__all__ lists them
from .patch import apply_patch
from .protocol import PROTOCOL_VERSION, conversation_workflow_id

__all__ = [
    "PROTOCOL_VERSION",
    "AesGcmPayloadCodec",
    "CodecConfigError",
    "ConversationClient",
    "PayloadDecryptError",
    "Prepared",
    "apply_patch",
    "conversation_workflow_id",
    "encrypting_data_converter",
    "parse_key_list",
]
__all__ += errors.__all__
