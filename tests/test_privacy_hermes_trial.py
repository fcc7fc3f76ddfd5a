"""The privacy gate on what a person told an agent, stored by the Hermes agent's own memory
provider (tests/fixtures/hermes_trial.json, docs/reliability.md "A trial with the Hermes agent's
provider"): every secret refused, every ordinary memory kept. Three of its secrets were published
before the rules read them: a door's code after ", it's", a passphrase of four dashed words and a
number told by what it opens, and a private key in hex after its name with no verb."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pdsmem.mapping import privacy

TRIAL = json.loads((Path(__file__).parent / "fixtures" / "hermes_trial.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("index", range(len(TRIAL["secrets"])))
def test_every_secret_of_the_trial_is_refused(index):
    assert privacy.sensitive_reason(TRIAL["secrets"][index]) is not None, f"secret {index} would be published"


@pytest.mark.parametrize("index", range(len(TRIAL["ordinary"])))
def test_every_ordinary_memory_of_the_trial_is_kept(index):
    assert privacy.sensitive_reason(TRIAL["ordinary"][index]) is None, f"ordinary memory {index} refused"


@pytest.mark.parametrize("turn", TRIAL["turns"], ids=lambda turn: "with a secret" if turn["secret"] else "without")
def test_a_turn_is_a_transcript_and_its_secret_is_refused_even_when_transcripts_are_published(turn):
    summary = f"User: {turn['user']}\nAssistant: {turn['assistant']}"  # as the provider writes a turn
    event = {"eventType": "episode", "summary": summary, "privacyScope": "shared", "visibility": "shared"}
    with pytest.raises(privacy.PrivacyRefused, match="transcript"):
        privacy.check_publishable(event, memory_id="m", publish_private=False, texts={"summary": summary})
    if turn["secret"] is None:
        privacy.check_publishable(event, memory_id="m", publish_private=False, texts={"summary": summary},
                                  include_transcript=True)
        return
    with pytest.raises(privacy.SensitiveContent) as refused:
        privacy.check_publishable(event, memory_id="m", publish_private=False, texts={"summary": summary},
                                  include_transcript=True)
    assert turn["secret"] not in str(refused.value)


@pytest.mark.parametrize(("text", "why"), [
    ("The building on Rue Oberkampf has a door code, it's 5390", "a street's word no longer hides the code"),
    ("the wifi password, it's hunter22", "', it's' says what it is"),
    ("I log into my work laptop with correct-horse-battery-staple-9", "four dashed words and a number"),
    ("my metamask private key 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "hex after its name"),
])
def test_what_the_trial_found(text, why):
    assert privacy.sensitive_reason(text) is not None, why


@pytest.mark.parametrize("text", [
    "The door code, it's on the fridge",
    "the PIN, it is 4 digits long",
    "Password manager rollout: pilot group is team-platform-infra-2, the rest in May.",
    "tx hash 0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
    "contract address 0x4c0883a69102937d6231471b5dbb6204fe512961",
])
def test_and_what_it_still_passes(text):
    assert privacy.sensitive_reason(text) is None
