"""The privacy gate against Yelp's detect-secrets, on the same texts in the same run.

The corpora of memory texts (tests/privacy_corpus/, docs/reliability.md "The privacy gate"):
``tune*`` and ``review*``, the sets the gate's rules were tuned on, and ``heldout*``, each written
independently by a writer who saw neither the gate's code nor the other sets, and never tuned on.
For each, this prints

- the share of leaking texts caught, per family group and per family, by pdsmem's gate, by each
  of its layers alone, by detect-secrets 1.5.0 with all its plugins and default filters (as its
  ``scan_file`` does on a text file), and by either;
- the share of benign texts each refuses;
- the gate's time per text (median and 95th percentile over every text) against detect-secrets'.

    .venv/bin/python scripts/bench_privacy.py [--corpus NAME]... [--families] [--misses N]

Then the labels of three translation catalogs (tests/fixtures/password_words/): a label, then a
value plainly of its kind, caught; the same label before a stand-in for a value, refused. Home
Assistant's ``held`` half of languages was never tuned on. Then memory texts around values Faker
makes in 48 locales (``devkit.faker_texts``), its ``held`` half of locales never tuned on.

``--misses N`` lists up to N ids of each kind of miss, never the texts (they hold secrets).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

from pdsmem.mapping import privacy

CORPORA = Path(__file__).resolve().parents[1] / "tests" / "privacy_corpus"
# tuned on: tune to tune44 and review; never tuned on: heldout to heldout43 (each written by its own writer)
CORPUS_NAMES = ("tune", "tune2", "tune3", "tune4", "tune5", "tune6", "tune7", "tune8", "tune9", "tune10", "tune11", "tune12",
                "tune13", "tune14", "tune15", "tune16", "tune17", "tune18", "tune19", "tune20", "tune21", "tune22", "tune23", "tune24", "tune25", "tune26", "tune27", "tune28", "tune29", "tune30", "tune31", "tune32", "tune33", "tune34", "tune35", "tune36", "tune37", "tune38", "tune39", "tune40", "tune41", "tune42", "tune43", "tune44", "review", "review16", "review17", "review18", "review19", "review20", "review21", "review22", "review23", "review24", "heldout", "heldout2", "heldout3", "heldout4", "heldout5", "heldout6", "heldout7", "heldout8",
                "heldout9", "heldout10", "heldout11", "heldout12", "heldout13", "heldout14", "heldout15", "heldout16", "heldout17", "heldout18", "heldout19", "heldout20", "heldout21", "heldout22", "heldout23", "heldout24", "heldout25", "heldout26", "heldout27", "heldout28", "heldout29", "heldout30", "heldout31", "heldout32", "heldout33", "heldout34", "heldout35", "heldout36", "heldout37", "heldout38", "heldout39", "heldout40", "heldout41", "heldout42", "heldout43")
GROUPS = ("provider", "connection", "prose_password", "otp_recovery", "financial_id", "output_paths")
AIMS = {"overall": 0.95, "group": 0.90, "benign": 0.01}
BY_DESIGN = (("local_paths", "naming a local filesystem path"), ("shell_output", "holding a shell prompt and its output"))


def load(corpus: str, kind: str) -> list[dict]:
    with open(CORPORA / corpus / f"{kind}.jsonl", encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


_KEPT: list = []


def detect_secrets_finder():
    """detect-secrets 1.5.0 as its users run it on a file: every plugin and the default filters,
    on the text's lines as ``scan_file`` reads them from a ``memory.txt`` (in memory: no file is
    written, so that its time is the scanner's)."""
    from detect_secrets.core.scan import _process_line_based_plugins
    from detect_secrets.settings import default_settings

    _KEPT.append(default_settings())  # kept: a collected context manager leaves its settings
    _KEPT[-1].__enter__()

    def finds(text: str) -> bool:
        lines = list(enumerate(text.splitlines() or [text], start=1))
        return any(True for _ in _process_line_based_plugins(lines=lines, filename="memory.txt"))

    return finds


def timed(check, texts: list[str]) -> tuple[list[bool], list[float]]:
    verdicts, times = [], []
    for text in texts:
        start = time.perf_counter()
        verdict = bool(check(text))
        times.append(time.perf_counter() - start)
        verdicts.append(verdict)
    return verdicts, times


def share(flags: list[bool]) -> str:
    return f"{sum(flags) / len(flags):6.1%}" if flags else "   -  "


def report(corpus: str, finds_ds, *, families: bool, misses: int) -> dict:
    leaks, benign = load(corpus, "leaks"), load(corpus, "benign")
    texts = [item["text"] for item in leaks + benign]
    # warm both (detect-secrets imports its plugins on first use), then time every text
    privacy.sensitive_reason(texts[0]), finds_ds(texts[0])
    gate, gate_times = timed(privacy.sensitive_reason, texts)
    ds, ds_times = timed(finds_ds, texts)
    layers = [privacy.layer_reasons(text) for text in texts]
    names = [name for name, _ in privacy.LAYERS]
    n = len(leaks)

    print(f"\n## corpus {corpus}: {n} leaking texts, {len(benign)} benign\n")
    header = f"{'group':<16}{'texts':>6}  {'pdsmem':>7}{'detect-secrets':>15}{'either':>8}  " + \
        "".join(f"{name:>10}" for name in names)
    print(header)
    rows: dict[str, list[int]] = defaultdict(list)
    by_family: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, item in enumerate(leaks):
        rows[item["group"]].append(i)
        by_family[(item["group"], item["family"])].append(i)
    figures = {}

    def line(label: str, idx: list[int]) -> None:
        ours = [gate[i] for i in idx]
        theirs = [ds[i] for i in idx]
        figures[label] = (sum(ours) / len(ours), sum(theirs) / len(theirs))
        print(f"{label:<16}{len(idx):>6}  {share(ours):>7}{share(theirs):>15}"
              f"{share([gate[i] or ds[i] for i in idx]):>8}  "
              + "".join(f"{share([layers[i][name] is not None for i in idx]):>10}" for name in names))

    # the groups this corpus has: the usual ones in their order, then its own
    groups = [group for group in GROUPS if rows.get(group)] + sorted(set(rows) - set(GROUPS))
    for group in groups:
        line(group, rows[group])
        if families:
            for (fam_group, family), idx in sorted(by_family.items()):
                if fam_group == group:
                    line("  " + family[:14], idx)
    line("all leaks", list(range(n)))
    benign_idx = list(range(n, len(texts)))
    line("benign refused", benign_idx)

    ours_overall, _ = figures["all leaks"]
    benign_rate, ds_benign = figures["benign refused"]
    worst = min(groups, key=lambda g: figures[g][0])
    print(f"\naim: caught {ours_overall:.1%} of leaks (aim >= {AIMS['overall']:.0%}); weakest group {worst} "
          f"{figures[worst][0]:.1%} (aim >= {AIMS['group']:.0%}); benign refused {benign_rate:.2%} "
          f"(aim <= {AIMS['benign']:.0%}); better than detect-secrets in "
          f"{sum(figures[g][0] > figures[g][1] for g in groups)} of {len(groups)} groups")
    median, p95 = statistics.median(gate_times), statistics.quantiles(gate_times, n=20)[-1]
    ds_median = statistics.median(ds_times)
    print(f"gate time per text: median {median * 1e6:.1f} us, p95 {p95 * 1e6:.1f} us (aim: median < 100 us); "
          f"detect-secrets median {ds_median * 1e6:.1f} us; ratio detect-secrets/gate = {ds_median / median:.2f}")
    for kind, what in BY_DESIGN:  # benign texts the product refuses by its own rule, counted apart
        if (CORPORA / corpus / f"{kind}.jsonl").exists():
            apart = load(corpus, kind)
            print(f"benign texts {what}, apart (refused by design, docs/mapping.md): "
                  f"{share([privacy.sensitive_reason(item['text']) is not None for item in apart])} of {len(apart)} refused")
    if misses:
        missed = [leaks[i]["id"] for i in range(n) if not gate[i]]
        wrong = [benign[i - n]["id"] for i in benign_idx if gate[i]]
        print(f"missed leaks ({len(missed)}): {' '.join(missed[:misses])}")
        print(f"benign refused ({len(wrong)}): {' '.join(wrong[:misses])}")
    return figures


def catalog_labels() -> dict[str, list[tuple[str, str]]]:
    """(kind, label) per set: Django's and allauth's words for a password, Home Assistant's labels
    in the half of its languages tuned on and the half never tuned on."""
    from devkit.catalog_labels import home_assistant, translations

    sets = {catalog: [("password", label) for _, _, label in translations(catalog)] for catalog in ("django", "allauth")}
    for half in ("tune", "held"):
        sets[f"home_assistant {half}"] = [(kind, label) for _, kind, label in home_assistant(half)]
    return sets


def report_catalogs() -> None:
    from devkit.catalog_labels import STAND_INS, VALUES

    print("\n## translation catalogs' labels (a label, then a value of its kind; stand-ins after it)\n")
    print(f"{'set':24} {'labels':>6} {'values caught':>14} {'stand-ins refused':>18}")
    for name, labels in catalog_labels().items():
        leaks = [f"{label}{sign}{value}" for kind, label in labels for value in VALUES[kind] for sign in (": ", " = ")]
        stand_ins = [f"{label}: {value}" for _, label in labels for value in STAND_INS]
        caught = sum(privacy.sensitive_reason(text) is not None for text in leaks)
        refused = sum(privacy.sensitive_reason(text) is not None for text in stand_ins)
        print(f"{name:24} {len(labels):6} {share([True] * caught + [False] * (len(leaks) - caught)):>14} "
              f"{share([True] * refused + [False] * (len(stand_ins) - refused)):>18}")


def report_trials(finds_ds) -> None:
    """The trials through the Hermes agent's memory provider (tests/fixtures/hermes_trial*.json):
    what each reviewer told an agent, the first thirteen tuned on, the fourteenth to the sixteenth held out."""
    print("\n## trials through the Hermes provider (memories a reviewer told an agent; the first thirteen tuned on)\n")
    fixtures = CORPORA.parent / "fixtures"
    for name, tuned in (("hermes_trial", "tuned on"), ("hermes_trial2", "tuned on"), ("hermes_trial3", "tuned on"),
                        ("hermes_trial4", "tuned on"), ("hermes_trial5", "tuned on"), ("hermes_trial6", "tuned on"),
                        ("hermes_trial7", "tuned on"), ("hermes_trial8", "tuned on"),
                        ("hermes_trial9", "tuned on"), ("hermes_trial10", "tuned on"), ("hermes_trial11", "tuned on"),
                        ("hermes_trial12", "tuned on"), ("hermes_trial13", "tuned on"),
                        ("hermes_trial14_held", "held out"),
                        ("hermes_trial15_held", "held out"), ("hermes_trial16_held", "held out")):
        trial = json.loads((fixtures / f"{name}.json").read_text(encoding="utf-8"))
        caught = [privacy.sensitive_reason(text) is not None for text in trial["secrets"]]
        refused = [privacy.sensitive_reason(text) is not None for text in trial["ordinary"]]
        theirs = [bool(finds_ds(text)) for text in trial["secrets"]]
        print(f"{name} ({tuned}): secrets caught {sum(caught)}/{len(caught)} ({share(caught)}), detect-secrets "
              f"{sum(theirs)}/{len(theirs)}; ordinary refused {sum(refused)}/{len(refused)}")


def report_faker() -> None:
    from devkit.faker_texts import texts

    print("\n## values from Faker (48 locales; ordinary texts refused, leaks caught per kind)\n")
    made = texts()
    for half in ("tune", "held"):
        ordinary = [text for text in made if text.half == half and not text.leak]
        refused = sum(privacy.sensitive_reason(text.text) is not None for text in ordinary)
        caught: dict[str, list[bool]] = defaultdict(list)
        for text in made:
            if text.half == half and text.leak:
                caught[text.aim].append(privacy.sensitive_reason(text.text) is not None)
        every = [flag for flags in caught.values() for flag in flags]
        print(f"{half}: ordinary refused {refused}/{len(ordinary)}; leaks caught {share(every)} of {len(every)} ("
              + ", ".join(f"{aim} {sum(flags)}/{len(flags)}" for aim, flags in sorted(caught.items())) + ")")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", action="append", choices=CORPUS_NAMES,
                        help="a corpus to run (repeatable; default: all four)")
    parser.add_argument("--families", action="store_true", help="a line per family too")
    parser.add_argument("--misses", type=int, default=0, help="list up to N ids of missed and wrongly refused texts")
    parser.add_argument("--quick", action="store_true", help="(the same run: the corpora are small)")
    args = parser.parse_args(argv)
    finds_ds = detect_secrets_finder()
    for corpus in args.corpus or CORPUS_NAMES:
        report(corpus, finds_ds, families=args.families, misses=args.misses)
    if not args.corpus:
        report_catalogs()
        report_faker()
        report_trials(finds_ds)
    _KEPT.pop().__exit__(None, None, None)
    return 0


if __name__ == "__main__":
    sys.exit(main())
