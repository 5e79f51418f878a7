"""The Python codec against the worker's AES-GCM codec: vectors written by the TypeScript codec decode here, payloads
written here decode there (scripts/codec-vectors.ts), and a conversation with an encrypting worker works end to end
while the server's history holds no plaintext."""

from __future__ import annotations

import base64
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from temporalio.api.common.v1 import Payload
from temporalio.client import Client

from conftest import Worker, conversation_id, run_node
from durable_compaction import (
    AesGcmPayloadCodec,
    CodecConfigError,
    ConversationClient,
    ConversationUpdateError,
    PayloadDecryptError,
    encrypting_data_converter,
    parse_key_list,
)

VECTORS = json.loads((Path(__file__).parent / "vectors" / "aes-gcm.json").read_text())


def from_json(p: dict[str, Any]) -> Payload:
    return Payload(
        metadata={k: base64.b64decode(v) for k, v in p["metadata"].items()}, data=base64.b64decode(p["data"])
    )


def to_json(p: Payload) -> dict[str, Any]:
    return {"metadata": {k: base64.b64encode(v).decode() for k, v in p.metadata.items()}, "data": base64.b64encode(p.data).decode()}


def test_payloads_the_worker_codec_wrote_decode_here() -> None:
    codec = AesGcmPayloadCodec(parse_key_list(VECTORS["keys"]))
    for vector in VECTORS["vectors"]:
        assert codec.decode_one(from_json(vector["encoded"])) == from_json(vector["plain"])


def test_payloads_written_here_decode_in_the_worker_codec() -> None:
    keys = parse_key_list(VECTORS["keys"])
    plain = [from_json(v["plain"]) for v in VECTORS["vectors"]]
    encoded = [AesGcmPayloadCodec(keys, key_id).encode_one(p) for key_id in keys for p in plain]
    for payload in encoded:
        assert payload.metadata["encoding"] == b"binary/encrypted"
        assert payload.metadata["encryption-cipher"] == b"AES-256-GCM"
    out = run_node(
        "scripts/codec-vectors.ts",
        "decode",
        stdin=json.dumps({"keys": VECTORS["keys"], "payloads": [to_json(p) for p in encoded]}),
    )
    assert [from_json(p) for p in json.loads(out)] == plain * len(keys)


def test_altered_or_unknown_payloads_are_refused_without_key_material() -> None:
    keys = parse_key_list(VECTORS["keys"])
    vector = from_json(VECTORS["vectors"][0]["encoded"])
    altered = Payload()
    altered.CopyFrom(vector)
    altered.data = vector.data[:20] + bytes([vector.data[20] ^ 1]) + vector.data[21:]
    with pytest.raises(PayloadDecryptError, match="does not authenticate"):
        AesGcmPayloadCodec(keys).decode_one(altered)
    # Relabelled to the other key: the key id is authenticated too.
    relabelled = Payload()
    relabelled.CopyFrom(vector)
    relabelled.metadata["encryption-key-id"] = b"new.key_2"
    with pytest.raises(PayloadDecryptError, match="does not authenticate"):
        AesGcmPayloadCodec(keys).decode_one(relabelled)
    only_new = {"new.key_2": keys["new.key_2"]}
    with pytest.raises(PayloadDecryptError, match=r"key 'old-key', which is not configured \(keys: new.key_2\)") as err:
        AesGcmPayloadCodec(only_new).decode_one(vector)
    assert base64.b64encode(keys["new.key_2"]).decode() not in str(err.value)
    plain = Payload(metadata={"encoding": b"json/plain"}, data=b"{}")
    assert AesGcmPayloadCodec(keys).decode_one(plain) == plain


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("nocolon", "entry 1 must be <id>:<base64 key>"),
        ("a:" + base64.b64encode(b"short").decode(), "key 'a' must be 32 bytes in base64"),
        ("a:" + base64.b64encode(bytes(32)).decode() + ",a:" + base64.b64encode(bytes(32)).decode(), "listed twice"),
        ("a:not base64!!", "key 'a' must be 32 bytes"),
    ],
)
def test_key_lists_are_read_as_the_worker_reads_them(text: str, message: str) -> None:
    with pytest.raises(CodecConfigError, match=message):
        parse_key_list(text)


async def test_a_conversation_with_an_encrypting_worker(
    dev_server: str, start_worker: Callable[..., Worker]
) -> None:
    keys_text = "py-k1:" + base64.b64encode(os.urandom(32)).decode()
    worker = start_worker(env={"DC_CODEC_ENCRYPT": "true", "DC_CODEC_KEYS": keys_text})
    codec = AesGcmPayloadCodec.from_env({"DC_CODEC_KEYS": keys_text})
    client = await Client.connect(dev_server, data_converter=encrypting_data_converter(codec))
    conv = ConversationClient(client, conversation_id("encrypted"), worker.task_queue)
    secret = "the customer card ends 4242 and lives at 12 Canary Wharf"
    prepared = await conv.prepare([{"role": "user", "content": secret}])
    assert prepared.messages == [{"role": "user", "content": secret}]
    with pytest.raises(ConversationUpdateError) as refused:
        await conv.prepare([{"role": "wizard", "content": secret}])
    assert refused.value.type == "InvalidAppend" and refused.value.stored is False
    assert "unknown role 'wizard'" in str(refused.value), "the failure message decodes through the codec"
    # The server stores ciphertext only: the raw history, read without the codec, holds no plaintext.
    plain_client = await Client.connect(dev_server)
    history = await plain_client.get_workflow_handle(conv.workflow_id).fetch_history()
    raw = b"".join(event.SerializeToString() for event in history.events)
    assert b"binary/encrypted" in raw and b"conversationWorkflow" in raw, "the history was read"
    assert b"4242" not in raw and b"Canary" not in raw and b"wizard" not in raw
    assert (await conv.context())["messages"] == [{"role": "user", "content": secret}]
