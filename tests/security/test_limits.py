"""Per-user rate limits: a clear refusal with Retry-After, users counted apart."""

from __future__ import annotations

import pytest

from addin_server.web.limits import RateLimiter, parse_limit
from index_builder.errors import ConfigError, RateLimitedError


def test_limit_per_user_with_retry_after() -> None:
    limiter = RateLimiter(parse_limit("2/minute", "X"), None)
    limiter.check("entra:alice")
    limiter.check("entra:alice")
    with pytest.raises(RateLimitedError) as refused:
        limiter.check("entra:alice")
    assert 1 <= refused.value.retry_after <= 60 and refused.value.code == "rate_limited"
    assert "too many requests (the limit is 2 per minute)" in refused.value.message
    limiter.check("entra:bob")  # another user has a budget of their own


def test_redraft_has_its_own_tighter_limit() -> None:
    limiter = RateLimiter(parse_limit("100/minute", "X"), parse_limit("1/hour", "Y"))
    limiter.check("u", redraft=True)
    limiter.served("u")  # the redraft was answered: it counts
    limiter.check("u")  # searches still go through
    with pytest.raises(RateLimitedError, match="too many redrafts") as refused:
        limiter.check("u", redraft=True)
    assert 3500 <= refused.value.retry_after <= 3600 and "60 minutes" in refused.value.message


def test_a_refused_call_takes_no_slot() -> None:
    # "Try again in 40 s", then 45 s later "12 s": refusals had counted as redrafts.
    limiter = RateLimiter(parse_limit("4/minute", "X"), parse_limit("1/minute", "Y"))
    for _ in range(2):
        limiter.check("u", redraft=True)  # refused after the check (a bad request, no model)
    limiter.check("u", redraft=True)
    limiter.served("u")
    with pytest.raises(RateLimitedError, match="too many redrafts"):
        limiter.check("u", redraft=True)
    limiter.check("u")  # the 429 took none of the four requests either


@pytest.mark.parametrize("text", ["off", "", "none"])
def test_limits_can_be_off(text: str) -> None:
    assert parse_limit(text, "PRECEDENT_RATE_LIMIT") is None
    RateLimiter(None, None).check("u")


@pytest.mark.parametrize("text", ["120", "120/fortnight", "-1/minute", "0/minute", "ten/minute"])
def test_bad_limits_name_the_variable(text: str) -> None:
    with pytest.raises(ConfigError, match="PRECEDENT_RATE_LIMIT must look like 120/minute"):
        parse_limit(text, "PRECEDENT_RATE_LIMIT")
