"""The AES-256-GCM payload codec, compatible with the worker's (src/codec/aes-gcm-codec.ts and keys.ts): the same key
list format (``id:base64key,id:base64key`` in ``DC_CODEC_KEYS``), the same payload metadata (``encoding:
binary/encrypted``, ``encryption-key-id``, ``encryption-cipher: AES-256-GCM``) and the same data (a 12-byte IV, the
ciphertext of the serialized Payload, the 16-byte tag, with the key id as associated data), so a payload written by
one side reads on the other."""

from __future__ import annotations

import base64
import binascii
import dataclasses
import os
import re
from collections.abc import Mapping, Sequence

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from temporalio.api.common.v1 import Payload
from temporalio.converter import DataConverter, DefaultFailureConverterWithEncodedAttributes, PayloadCodec

ENCRYPTED_ENCODING = b"binary/encrypted"
KEY_ID_METADATA = "encryption-key-id"
CIPHER_METADATA = "encryption-cipher"
CIPHER = b"AES-256-GCM"
IV_BYTES = 12
TAG_BYTES = 16
KEY_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")
_BASE64 = re.compile(r"^[A-Za-z0-9+/]+={0,2}$")


class CodecConfigError(ValueError):
    """Bad codec configuration (the message never contains a key)."""


class PayloadDecryptError(ValueError):
    """A payload that cannot be decrypted: unknown key id, altered or truncated data. Never contains key material."""


def parse_key_list(text: str, variable: str = "DC_CODEC_KEYS") -> dict[str, bytes]:
    """Parses ``id:base64key[,id:base64key…]``.

    Returns:
        id → 32-byte key, in the order listed.
    Raises:
        CodecConfigError: naming the variable and the entry when an entry is malformed, an id repeats, or a key is
            not 32 bytes of base64.
    """
    keys: dict[str, bytes] = {}
    entries = [e.strip() for e in text.split(",") if e.strip() != ""]
    for index, entry in enumerate(entries, start=1):
        key_id, colon, encoded = entry.partition(":")
        key_id, encoded = key_id.strip(), encoded.strip()
        where = f"{variable}: entry {index}"
        if not colon or not KEY_ID.match(key_id):
            raise CodecConfigError(f"{where} must be <id>:<base64 key> with an id of letters, digits, '.', '_', '-'")
        if key_id in keys:
            raise CodecConfigError(f"{where}: key id '{key_id}' is listed twice")
        try:
            key = base64.b64decode(encoded, validate=True) if _BASE64.match(encoded) else b""
        except binascii.Error:
            key = b""
        if len(key) != 32:
            raise CodecConfigError(f"{where}: key '{key_id}' must be 32 bytes in base64 (openssl rand -base64 32)")
        keys[key_id] = key
    return keys


class AesGcmPayloadCodec(PayloadCodec):
    """Encrypts every payload with ``encrypt_key_id`` (a fresh random IV each); decrypts with any listed key (picked
    by the payload's key id), so payloads written before a rotation still decode. Unencrypted payloads pass through
    decoding unchanged."""

    def __init__(self, keys: Mapping[str, bytes], encrypt_key_id: str = "") -> None:
        if not keys:
            raise CodecConfigError("the codec needs at least one key")
        self._keys = {k: AESGCM(v) for k, v in keys.items()}
        self.encrypt_key_id = encrypt_key_id or next(iter(keys))
        if self.encrypt_key_id not in self._keys:
            raise CodecConfigError(f"key id '{self.encrypt_key_id}' is not among the keys ({', '.join(keys)})")

    @staticmethod
    def from_env(
        env: Mapping[str, str] | None = None, keys_env: str = "DC_CODEC_KEYS", key_id_env: str = "DC_CODEC_KEY_ID"
    ) -> AesGcmPayloadCodec:
        """Returns the codec configured as the worker's is: keys from ``DC_CODEC_KEYS``, the encrypting id from
        ``DC_CODEC_KEY_ID`` (default: the first key listed).

        Raises:
            CodecConfigError: when the variable is unset, empty or malformed (named; never a key).
        """
        source = os.environ if env is None else env
        text = source.get(keys_env, "")
        if text.strip() == "":
            raise CodecConfigError(f"payload encryption is on but the environment variable {keys_env} holds no keys")
        return AesGcmPayloadCodec(parse_key_list(text, keys_env), source.get(key_id_env, ""))

    async def encode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [self.encode_one(p) for p in payloads]

    async def decode(self, payloads: Sequence[Payload]) -> list[Payload]:
        return [self.decode_one(p) for p in payloads]

    def encode_one(self, payload: Payload) -> Payload:
        """Returns ``payload`` serialized and encrypted."""
        key_id = self.encrypt_key_id
        iv = os.urandom(IV_BYTES)
        # The key id is authenticated: a payload cannot be relabelled to another key.
        sealed = self._keys[key_id].encrypt(iv, payload.SerializeToString(), key_id.encode("utf-8"))
        return Payload(
            metadata={"encoding": ENCRYPTED_ENCODING, KEY_ID_METADATA: key_id.encode(), CIPHER_METADATA: CIPHER},
            data=iv + sealed,
        )

    def decode_one(self, payload: Payload) -> Payload:
        """Returns the original payload (an unencrypted one as it is).

        Raises:
            PayloadDecryptError: naming the key id when the key is unknown or the data does not authenticate.
        """
        if payload.metadata.get("encoding") != ENCRYPTED_ENCODING:
            return payload
        key_id = payload.metadata.get(KEY_ID_METADATA, b"").decode("utf-8", "replace")
        aead = self._keys.get(key_id)
        if aead is None:
            raise PayloadDecryptError(
                f"payload encrypted with key '{key_id[:64]}', which is not configured (keys: {', '.join(self._keys)})"
            )
        data = payload.data
        if len(data) < IV_BYTES + TAG_BYTES:
            raise PayloadDecryptError(f"encrypted payload (key '{key_id}') is truncated")
        try:
            plain = aead.decrypt(data[:IV_BYTES], data[IV_BYTES:], key_id.encode("utf-8"))
        except InvalidTag:
            raise PayloadDecryptError(
                f"encrypted payload (key '{key_id}') does not authenticate: wrong key or altered data"
            ) from None
        out = Payload()
        out.ParseFromString(plain)
        return out


def encrypting_data_converter(codec: AesGcmPayloadCodec) -> DataConverter:
    """Returns the data converter of an encrypting worker's clients: the codec, and failure messages and stack traces
    moved into encoded (so encrypted) attributes, as the worker's failure converter does."""
    return dataclasses.replace(
        DataConverter.default,
        payload_codec=codec,
        failure_converter_class=DefaultFailureConverterWithEncodedAttributes,
    )
