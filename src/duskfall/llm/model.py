"""Model: retries, a concurrency limit, timeouts, usage and cost over a :class:`Provider`."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from duskfall.core.redaction import SeatTails, redact
from duskfall.core.usage import Tally
from duskfall.llm.calls import CallRecord
from duskfall.llm.endpoints import EndpointState, QueuedTimeout, endpoint_state
from duskfall.llm.errors import CallTimeout, LLMError, TransientError
from duskfall.llm.loops import concurrency_limit
from duskfall.llm.messages import fold_system
from duskfall.llm.pricing import priced
from duskfall.llm.provider import Provider
from duskfall.llm.retry import RetryPolicy
from duskfall.llm.schema import NoJSON, extract_json, validate
from duskfall.llm.types import CallOptions, Completion, Message, Usage, approx_tokens

_ROLES = ("system", "user", "assistant")
MESSAGE_OVERHEAD_TOKENS = 8  # a chat template's turn markers, counted generously


class RetriesExhausted(LLMError):
    """Every attempt of a call failed; ``errors`` says why each did, ``usage`` what they cost."""

    def __init__(self, message: str, errors: Sequence[str], usage: Usage) -> None:
        super().__init__(message, usage=usage)
        self.errors = tuple(errors)


class Model:
    """A callable model: ``await model.complete(messages, schema=None, options=CallOptions())``.

    * failures worth retrying (429, 5xx, timeouts, dropped connections, garbage and empty
      replies) are re-sent with exponential backoff (``retry``), honouring Retry-After;
    * every attempt has a ``timeout`` (seconds); ``deadline`` bounds a whole call;
    * calls to one endpoint run at most ``concurrency`` at a time (default: the provider's),
      fewer where the endpoint says or shows that it serves fewer (:mod:`.endpoints`): a call
      waits for its turn in duskfall's queue, where no timeout runs, and an attempt that
      timed out while others were in flight is re-sent without counting as a failure;
    * ``fold_system`` moves the system prompt into the first user turn, for servers whose
      chat template has no system role;
    * with a ``schema``, the reply is constrained where the provider can, else the schema is
      put in the prompt; either way it is parsed leniently and validated, and an invalid
      reply is re-asked once with the validation errors as a hint;
    * given a :class:`~duskfall.llm.calls.CallRecord`, each call is recorded as an ``llm_call``
      event (prompt, reply, tokens, cost, retries, time queued, the structured-output form
      the provider used), replied, failed or cancelled by its caller;
    * the reply is redacted (:func:`~duskfall.core.redaction.redact`) before anyone reads it: a
      server that echoes the key it was sent, in any disguise, cannot put it into a game, a log
      or a prompt; each of a reply's texts is searched joined to the same text of the seat's
      previous reply (:class:`~duskfall.core.redaction.SeatTails`), so a key said half in one
      reply and half in the next is caught too;
    * ``usage`` and ``calls`` total everything this model has spent;
    * ``context_tokens`` is the model's context window in tokens, if known (the local model's
      ``n_ctx``; for an API, ``context_tokens`` in its config section), so that callers can keep
      a conversation within it; :meth:`count_tokens` measures messages against it, in the
      provider's own tokens where it can count them (``exact_counts``), else estimated.
    """

    def __init__(
        self,
        provider: Provider,
        *,
        spec: str | None = None,
        retry: RetryPolicy | None = None,
        timeout: float = 60.0,
        concurrency: int | None = None,
        fold_system: bool = False,
    ) -> None:
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        if concurrency is not None and concurrency < 1:
            raise ValueError("concurrency must be at least 1")
        self.provider = provider
        own = provider.name if provider.model == provider.name else None
        self.spec = redact(spec or own or f"{provider.name}:{provider.model}")
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self.concurrency = concurrency or provider.max_concurrency
        self.fold_system = fold_system
        self.endpoint: EndpointState = endpoint_state(provider.endpoint)
        self.context_tokens = provider.context_tokens
        self.exact_counts = provider.capabilities.token_count
        self._counter: Callable[[str], int] = (
            provider.count_tokens if self.exact_counts else approx_tokens
        )
        self.tally = Tally()
        self.tails = SeatTails()  # per seat of the calls' records: the end of its last reply

    def __repr__(self) -> str:
        return f"Model({self.spec!r})"

    def count_tokens(self, messages: Sequence[Message]) -> int:
        """The tokens ``messages`` take in the prompt, chat-template markers included."""
        count = self._counter
        return sum(count(m["content"]) + MESSAGE_OVERHEAD_TOKENS for m in messages)

    async def complete(
        self,
        messages: Sequence[Message],
        schema: Mapping[str, Any] | None = None,
        *,
        options: CallOptions | None = None,
        deadline: float | None = None,
        limit: float | None = None,
        record: CallRecord | None = None,
    ) -> Completion:
        """Send ``messages``; the reply, or :class:`LLMError` once retries are spent.

        ``deadline`` (seconds) stops re-sending once the next attempt would start past it;
        ``limit`` abandons the whole call at that time (:class:`CallTimeout`). With a
        ``record``, the call is recorded as an ``llm_call`` event whether it replies or fails.
        """
        started = time.monotonic()
        seat = record.seat if record is not None else None
        try:
            if limit is None:
                completion = await self._complete(
                    messages, schema, options, deadline, started, seat
                )
            else:
                try:
                    async with asyncio.timeout(limit):
                        completion = await self._complete(
                            messages, schema, options, deadline, started, seat
                        )
                except TimeoutError:
                    raise CallTimeout(f"no reply within {limit:g}s") from None
        except LLMError as exc:
            if record is not None:
                record.failed(self.spec, messages, exc, time.monotonic() - started, options)
            raise
        except asyncio.CancelledError:
            # the caller gave up (a decision's deadline): the call is still recorded
            if record is not None:
                elapsed = time.monotonic() - started
                cancelled = CallTimeout(f"cancelled by the caller after {elapsed:.1f}s")
                record.failed(self.spec, messages, cancelled, elapsed, options)
            raise
        if record is not None:
            record.replied(self.spec, messages, completion, options)
        return completion

    async def _complete(
        self,
        messages: Sequence[Message],
        schema: Mapping[str, Any] | None,
        options: CallOptions | None,
        deadline: float | None,
        started: float,
        seat: int | None = None,
    ) -> Completion:
        """The call with its retries and format re-asks (``seat``: whose reply it is)."""
        sent = _checked_messages(messages)
        if self.fold_system:
            sent = fold_system(sent)
        if schema is not None and not self.provider.capabilities.schema:
            sent = _with_schema_instruction(sent, schema)
        sampling = options.to_dict() if options is not None else {}
        if not self.provider.takes_seed:
            sampling.pop("seed", None)
        usage, errors, queued = Usage(), [], [0.0]
        format_left, failures, requeued = self.retry.format_retries, 0, 0
        await self._ask_endpoint()
        while True:
            try:
                reply = await self._attempt(sent, schema, sampling, queued)
            except LLMError as exc:
                if not exc.retryable:
                    raise
                usage += exc.usage
                errors.append(str(exc))
                if isinstance(exc, QueuedTimeout) and requeued < self.retry.retries:
                    requeued += 1  # the server's queue, not a failure: wait in ours instead
                    delay = 0.0
                else:
                    delay = self.retry.delay(failures, exc.retry_after)
                    failures += 1
                late = deadline is not None and time.monotonic() - started + delay > deadline
                if failures > self.retry.retries or late:
                    self._account(usage)
                    raise RetriesExhausted(
                        f"{self.spec}: gave up after {len(errors)} failed attempts (last: {exc})",
                        errors,
                        usage,
                    ) from exc
                await asyncio.sleep(delay)
                continue
            usage += reply.usage
            answer: dict[str, Any] | None = None
            if schema is None:
                text = self.tails.redact(seat, reply.text, "reply")
            else:
                text, answer, problems = _normalised(reply.text, schema, seat, self.tails)
                if problems and format_left > 0:
                    format_left -= 1
                    errors.append("invalid reply: " + "; ".join(problems))
                    sent = [*sent, *_format_hint(redact(reply.text), problems)]
                    continue
            self._account(usage)
            return Completion(
                text,
                usage,
                retries=len(errors),
                errors=tuple(errors),
                latency_s=time.monotonic() - started,
                model=self.spec,
                output_form=reply.output_form,
                queue_s=queued[0],
                answer=answer,
            )

    async def _ask_endpoint(self) -> None:
        """Ask the endpoint how many calls it serves at once (once per endpoint), where the
        provider can ask (``concurrency_hint``)."""
        state = self.endpoint
        if state.asked:
            return
        async with state.lock():
            if not state.asked:
                try:
                    learnt = await self.provider.concurrency_hint()
                finally:
                    state.asked = True
                if learnt is not None and (state.learnt is None or learnt < state.learnt):
                    state.learnt = max(1, int(learnt))

    async def _attempt(
        self,
        messages: list[Message],
        schema: Mapping[str, Any] | None,
        options: dict[str, Any],
        queued: list[float],
    ) -> Completion:
        """One attempt: wait for a slot of the endpoint (``queued[0]`` adds up the wait),
        then send, with the timeout running from the send."""
        provider, state = self.provider, self.endpoint
        waited = time.monotonic()
        others = 0
        try:
            async with concurrency_limit(provider.endpoint, state.limit(self.concurrency)):
                queued[0] += time.monotonic() - waited
                others = state.in_flight
                state.in_flight += 1
                try:
                    async with asyncio.timeout(self.timeout):
                        reply = await provider.complete(messages, schema, **options)
                finally:
                    state.in_flight -= 1
        except TimeoutError:
            message = f"no reply within {self.timeout:g}s"
            if others:
                limit = state.lower(others, self.concurrency)
                raise QueuedTimeout(
                    f"queued: {message} with {others} other calls in flight; now {limit} at a time",
                    others,
                    limit,
                ) from None
            raise TransientError(message) from None
        except LLMError:
            raise
        except Exception as exc:  # a provider bug or an unmapped SDK error
            raise LLMError(f"{self.spec}: {type(exc).__name__}: {exc}") from exc
        usage = priced(reply.usage, provider.name, provider.model)
        if not reply.text.strip():
            raise TransientError("empty reply", usage=usage)
        return Completion(reply.text, usage, output_form=reply.output_form)

    def _account(self, usage: Usage) -> None:
        self.tally.add(usage)


def _checked_messages(messages: Sequence[Message]) -> list[Message]:
    if not messages:
        raise ValueError("a model call needs at least one message")
    for i, message in enumerate(messages):
        if not isinstance(message, Mapping) or message.get("role") not in _ROLES:
            raise ValueError(f"message {i} needs a role of {', '.join(_ROLES)}")
        if not isinstance(message.get("content"), str):
            raise ValueError(f"message {i} needs string content")
    return [{"role": m["role"], "content": m["content"]} for m in messages]


def _normalised(
    text: str, schema: Mapping[str, Any], seat: int | None, tails: SeatTails
) -> tuple[str, dict[str, Any] | None, list[str]]:
    """The reply's JSON object as compact text, redacted (each text joined to the seat's last
    one in the same place), the object itself where the reply is one (parsed here once: the
    caller need not parse the text again), and what is wrong with it (if anything)."""
    try:
        value = tails.redact_value(seat, extract_json(text), "reply")
    except NoJSON:
        return tails.redact(seat, text, "reply"), None, ["the reply contains no JSON object"]
    problems = validate(value, schema)
    answer = value if isinstance(value, dict) else None
    return json.dumps(value, ensure_ascii=False), answer, problems


def _format_hint(reply: str, problems: list[str]) -> list[Message]:
    listed = "; ".join(problems[:5])
    return [
        {"role": "assistant", "content": reply},
        {
            "role": "user",
            "content": f"That reply was not valid ({listed}). "
            "Answer again with only the corrected JSON object.",
        },
    ]


def _with_schema_instruction(messages: list[Message], schema: Mapping[str, Any]) -> list[Message]:
    note = (
        "Reply with only one JSON object (no prose, no code fence) matching this JSON schema: "
        + json.dumps(schema, separators=(",", ":"))
    )
    if messages[0]["role"] == "system":
        first: Message = {"role": "system", "content": messages[0]["content"] + "\n\n" + note}
        return [first, *messages[1:]]
    return [{"role": "system", "content": note}, *messages]
