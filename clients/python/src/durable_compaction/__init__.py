"""durable-compaction for Python: ``ConversationClient`` over the ``temporalio`` SDK, and the payload codec compatible
with the worker's AES-GCM codec. See docs/client.md ("Using it from Python")."""

from .client import ConversationClient, Prepared
from .codec import AesGcmPayloadCodec, CodecConfigError, PayloadDecryptError, encrypting_data_converter, parse_key_list
from .errors import (
    ConversationClosedError,
    ConversationRunEnded,
    ConversationUnavailableError,
    ConversationUpdateError,
    InvalidConversationId,
    SettingsError,
    Stored,
    UnansweredCallError,
)
from .patch import apply_patch
from .protocol import PROTOCOL_VERSION, conversation_workflow_id

__all__ = [
    "PROTOCOL_VERSION",
    "AesGcmPayloadCodec",
    "CodecConfigError",
    "ConversationClient",
    "ConversationClosedError",
    "ConversationRunEnded",
    "ConversationUnavailableError",
    "ConversationUpdateError",
    "InvalidConversationId",
    "PayloadDecryptError",
    "Prepared",
    "SettingsError",
    "Stored",
    "UnansweredCallError",
    "apply_patch",
    "conversation_workflow_id",
    "encrypting_data_converter",
    "parse_key_list",
]
