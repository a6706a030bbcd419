"""Every process's settings (API, workers, timekeeper, projector, reactor, ``serve``, CLI), from
``PAIJU_*`` environment variables (pydantic-settings): one configuration module they all read.

``load_settings()`` reads them and refuses a bad value with the variable's name:
``PAIJU_CONCURRENCY: Input should be a valid integer, got 'many'``.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    AliasChoices,
    Field,
    SecretStr,
    ValidationError,
    ValidationInfo,
    field_validator,
)
from pydantic_settings import BaseSettings, SettingsConfigDict

from services.rules.variants.timing import MAX_SECONDS
from services.tables.loader import MIN_KEY_BYTES
from services.tables.partitions import parse_table_stores

PREFIX = "PAIJU_"
Seconds = Annotated[int, Field(ge=1, le=MAX_SECONDS)]


def _rate_limit(value: str) -> str:
    from limits import parse_many

    if value.strip():
        try:
            parse_many(value)
        except ValueError:
            raise ValueError(f"{value!r} is not a rate limit such as '10/second;300/minute'") from None
    return value.strip()


RateLimit = Annotated[str, AfterValidator(_rate_limit)]


class SettingsError(ValueError):
    """A ``PAIJU_*`` variable that cannot be used; the message names it."""


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix=PREFIX, populate_by_name=True, extra="ignore", frozen=True
    )

    broker_url: str = "memory://"
    """Celery's broker: ``memory://`` (one process, embedded) or ``redis://HOST:PORT/DB``."""
    store_url: str = Field(
        default="sqlite:///paiju.sqlite3",
        validation_alias=AliasChoices("PAIJU_STORE_URL", "PAIJU_STORE", "store_url"),
    )
    """The event store (``$PAIJU_STORE`` too, as the other ``paiju`` commands read it): the home
    store, with rooms, players, accounts and the read models, and every table unless
    ``table_stores`` names stores of their own."""
    table_stores: str = Field(default="", max_length=8192)
    """Stores of the tables, partitions of them: ``"1=URL 2=URL"`` (``?schema=`` on one server
    counts). Empty: tables live in the home store. A table is placed when it opens and stays
    (``services.tables.partitions``); a number, once used, keeps naming the same store."""
    concurrency: int = Field(default=2, ge=1, le=256)
    """Worker processes (prefork) or threads."""
    table_cache: int = Field(default=2048, ge=1)
    """Tables each worker process keeps folded (``TableService``'s ``cached_tables``, its ``KeptFolds``' limit)."""
    visibility_timeout: int = Field(default=60, ge=5)
    """Seconds before Redis hands an unacknowledged message to another worker. Commands take
    milliseconds and no task waits for an ETA, so a short one loses little on a crash."""
    resend_after: float = Field(default=15.0, ge=1, le=3600)
    """Seconds a command answered 202 waits with no outcome before the resender (再送) sends it
    again; commands take milliseconds, so only a lost message waits this long. A command sent
    again is claimed for twice this, then sent again if it still has no outcome."""
    key_prefix: str = Field(default="paiju:", min_length=1, max_length=64)
    """Prefix of every Redis key the app writes (``global_keyprefix``)."""
    polling_interval: float = Field(default=0.02, gt=0, le=5)
    """``memory://`` only: how often an idle worker looks for messages."""
    snapshot_key: SecretStr | None = None
    """Seals the table snapshots (``$PAIJU_SNAPSHOT_KEY``, at least 16 bytes); none: no
    snapshots, every table folded from its events."""
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    log_format: Literal["json", "console"] = "json"
    turn_seconds: Seconds | None = None
    """The platform's default waits, for a table whose ``OpenTable`` names none (else the
    variant's, ``services.rules.variants.timing``)."""
    claim_seconds: Seconds | None = None
    autoplay_window_seconds: Seconds | None = None
    reconnect_grace_seconds: Seconds | None = None
    command_shards: int = Field(default=1, ge=1, le=64)
    """Queues a table's commands are spread over by its id (``commands.shard.<i>``; 1: the one
    ``commands`` queue). Every process that sends commands and every worker must agree."""
    command_shard: int | None = Field(default=None, ge=0, le=63)
    """The one shard this worker serves (with ``commands``), so a table's commands meet the
    fold this worker keeps of it; None: every shard (any command, no affinity)."""
    rules_queues_only: bool = False
    """A worker told to serve ``commands`` serves only the hand-back queues of the rules
    versions it has (``commands.rules.<version>``), not ``commands`` itself: the previous
    release's workers, kept through a rolling upgrade, decide only their version's tables
    (``deploy/README.md``, "Rolling a rules upgrade")."""
    webhook_url: str | None = None
    """Where platform notifications are posted; none: no reactor runs, nothing is sent."""
    webhook_secret: SecretStr | None = None
    """The HMAC-SHA256 key the platform checks each notification's signature with."""
    webhook_max_attempts: int = Field(default=8, ge=1, le=100)
    """Attempts before a delivery is set aside (``paiju webhooks list --set-aside``)."""
    webhook_backoff_base: float = Field(default=1.0, gt=0)
    """Seconds before the second attempt; each later wait doubles, with jitter, up to the cap."""
    webhook_backoff_cap: float = Field(default=300.0, gt=0)
    webhook_timeout: float = Field(default=5.0, gt=0, le=60)
    """Seconds a post may take (connect, read, write each)."""

    api_host: str = "127.0.0.1"
    """Where ``paiju api`` (and the API thread of ``paiju serve``) listens."""
    api_port: int = Field(default=8080, ge=0, le=65535)
    """0: any free port (the address is printed)."""
    api_token_secret: SecretStr | None = None
    """Signs seat, spectator and operator tokens (at least 32 bytes); every API process of one
    deployment needs the same. None: a random one per process (tokens die with it)."""
    api_key_pepper: SecretStr | None = None
    """The HMAC key of stored API-key hashes (kept outside the database); None: plain SHA-256."""
    api_token_seconds: int = Field(default=900, ge=10, le=86400)
    """How long a minted token lasts unless the platform asks for less."""
    api_command_wait: float = Field(default=2.0, ge=0, le=30)
    """Seconds a command's POST waits for its outcome before answering 202 (queued)."""
    api_max_waits: int = Field(default=8, ge=1, le=1000)
    """Outcomes one credential (an API key, a seat of a table) may await at once in an API
    process; past it a command's POST answers 202 at once and a ``?wait=`` read 429."""
    api_max_streams: int = Field(default=4, ge=1, le=100)
    """Live streams one seat may hold open at once in an API process (a reconnect's overlap,
    a second device); past it a new one is refused 429."""
    api_heartbeat_seconds: float = Field(default=15.0, gt=0, le=300)
    """A comment line on each idle stream this often, so proxies keep it open."""
    api_drop_grace_seconds: float = Field(default=5.0, ge=0, le=300)
    """A seat whose last stream closed this long ago is reported disconnected (断线)."""
    api_max_body_bytes: int = Field(default=16384, ge=256, le=1 << 20)
    api_cors_origins: str = ""
    """Comma-separated origins allowed by CORS; empty: CORS off."""
    api_rate_limit_key: RateLimit = "500/second;20000/minute"
    """Requests per platform API key, every route (``limits`` notation, ``;`` between several;
    empty: no limit). A key speaks for the whole platform: far more than a seat."""
    api_rate_limit_commands: RateLimit = "30/second;1200/minute"
    """Commands (POST) per seat of a table (per subject for a spectator or operator token).
    Generous: bots pass claims on every discard; a person gives about one a second."""
    api_rate_limit_reads: RateLimit = "60/second;2400/minute"
    """Reads (GET: view, legal commands, outcomes) per seat."""
    api_rate_limit_stream_connects: RateLimit = "30/minute"
    """Attempts to open a seat's live stream, per seat: counted apart from its commands, so a
    client reconnecting in a loop cannot starve its own moves."""
    api_rate_limit_anonymous: RateLimit = "20/second"
    """Requests per client address that name no valid key or token (they are refused anyway)."""
    api_rate_limit_strategy: Literal["moving-window", "sliding-window-counter"] = "moving-window"
    api_rate_limit_storage: str | None = None
    """Where the counts live: ``memory://`` (one process) or ``redis://HOST:PORT/DB``. None:
    ``memory://`` when embedded, else the broker's Redis (every API process counts together)."""

    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    """Where ``paiju worker``, ``timekeeper``, ``reactor`` and ``projector`` serve ``/metrics``
    (the API serves its own); none: not served; 0: any free port (logged, and in the part's
    heartbeat). Parts on one host need one each."""
    metrics_host: str = "127.0.0.1"
    metrics_dir: str | None = None
    """A prefork worker's multiprocess directory, wiped at start (each worker needs its own);
    none: ``$PROMETHEUS_MULTIPROC_DIR``, else a fresh temporary one."""
    heartbeat_seconds: float = Field(default=5.0, gt=0, le=300)
    """How often each part writes its heartbeat (Redis on the broker; this process when
    embedded)."""
    heartbeat_stale_seconds: float = Field(default=20.0, gt=0, le=3600)
    """A part whose last heartbeat is older than this is reported down (``paiju health``)."""
    health_max_projector_lag: int = Field(default=10_000, ge=1)
    """Positions a projection may be behind the store head before it is reported unhealthy."""

    @field_validator("log_level", "log_format", mode="before")
    @classmethod
    def _any_case(cls, value: Any) -> Any:
        if not isinstance(value, str):
            return value
        return value.upper() if value.lower() in ("debug", "info", "warning", "error") else value.lower()

    @field_validator("table_stores")
    @classmethod
    def _table_stores(cls, value: str) -> str:
        parse_table_stores(value)  # refused here, by name, not when a table first opens
        return value

    def table_store_urls(self) -> dict[int, str]:
        """Each table store's URL by partition number (empty: tables in the home store)."""
        return parse_table_stores(self.table_stores)

    @field_validator("snapshot_key")
    @classmethod
    def _long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value().encode()) < MIN_KEY_BYTES:
            raise ValueError(f"must be at least {MIN_KEY_BYTES} bytes")
        return None if value is None or not value.get_secret_value() else value

    @field_validator("api_token_secret")
    @classmethod
    def _token_secret_long_enough(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value().encode()) < 32:
            raise ValueError("must be at least 32 bytes")
        return value

    @field_validator("command_shard")
    @classmethod
    def _shard_among_shards(cls, value: int | None, info: ValidationInfo) -> int | None:
        shards = info.data.get("command_shards", 1)
        if value is not None and value >= shards:
            raise ValueError(f"shard {value} is not one of the {shards} command shards"
                             f" (PAIJU_COMMAND_SHARDS): 0 to {shards - 1}")  # fmt: skip
        return value

    def snapshot_key_bytes(self) -> bytes | None:
        if self.snapshot_key is None:
            return None
        return self.snapshot_key.get_secret_value().encode("utf-8", "surrogateescape")

    def default_timing(self) -> dict[str, int]:
        """The waits set here, by ``OpenTable.timing``'s names."""
        chosen = {
            "turn": self.turn_seconds,
            "claim": self.claim_seconds,
            "autoplay_window": self.autoplay_window_seconds,
            "reconnect_grace": self.reconnect_grace_seconds,
        }
        return {name: seconds for name, seconds in chosen.items() if seconds is not None}

    def rate_limit_storage(self) -> str:
        """The storage URL of the API's rate limits (see ``api_rate_limit_storage``)."""
        if self.api_rate_limit_storage:
            return self.api_rate_limit_storage
        if self.broker_url.startswith(("redis://", "rediss://")):
            return self.broker_url
        return "memory://"

    @property
    def embedded(self) -> bool:
        """One process: the in-memory broker (commands lost with the process; clients retry)."""
        return self.broker_url.startswith("memory://")


def load_settings(**overrides: Any) -> Settings:
    """The settings from the environment (``overrides`` win), or ``SettingsError``."""
    try:
        return Settings(**overrides)
    except ValidationError as error:
        raise SettingsError("; ".join(_named(e) for e in error.errors())) from None


def _named(error: Any) -> str:
    field = str(error["loc"][0]) if error["loc"] else "?"
    variable = field if field.startswith(PREFIX) else PREFIX + field.upper()
    secret = any(word in field.lower() for word in ("secret", "key", "password"))
    shown = "" if secret else f", got {error.get('input')!r}"  # a secret is never echoed
    return f"{variable}: {error['msg']}{shown}"
