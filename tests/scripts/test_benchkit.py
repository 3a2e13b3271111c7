"""scripts/benchkit: the percentile rule the mem0 anchor uses, the generated doc blocks
(replaced between their markers, everything else kept) and the aims' verdicts of
scripts/bench_locomo.py."""

from __future__ import annotations

import math
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from benchkit import docsection, versus  # noqa: E402
from benchkit.server_cpu import cpu_seconds, parse_cpu  # noqa: E402
from benchkit.timing import pct, summary_ms  # noqa: E402


def test_pct_uses_the_anchor_index_rule():
    xs = [float(i) for i in range(1, 21)]  # 1..20, shuffled below
    xs = xs[7:] + xs[:7]
    assert pct(xs, 0.5) == 11.0  # sorted[20 // 2]
    assert pct(xs, 0.95) == 20.0  # sorted[int(19.0)]
    assert pct([3.0], 0.95) == 3.0
    assert math.isnan(pct([], 0.5))
    s = summary_ms([0.010, 0.020, 0.030])
    assert s["n"] == 3 and s["p50_ms"] == 20.0 and s["max_ms"] == 30.0


def test_block_is_added_then_replaced_and_the_rest_kept(tmp_path):
    doc = tmp_path / "BENCHMARKS.md"
    doc.write_text("# Benchmarks\n\n## Recall\n\nrecall figures\n")
    heading = "## Against mem0 (LoCoMo dev)"
    docsection.write_block(doc, "bench_locomo", "table 1", heading)
    text = doc.read_text()
    assert text.index("## Recall") < text.index(heading) < text.index("table 1")
    doc.write_text(text + "\nhand-written analysis\n\n## Later\n\nkept\n")
    docsection.write_block(doc, "bench_locomo", "table 2", heading)
    text = doc.read_text()
    assert "table 2" in text and "table 1" not in text
    for kept in ("recall figures", "hand-written analysis", "## Later\n\nkept"):
        assert kept in text
    assert text.count(heading) == 1 and text.count("<!-- bench_locomo:begin -->") == 1


def test_heading_without_markers_gets_the_block_under_it():
    text = "# B\n\n## Against mem0 (LoCoMo dev)\n\nnotes\n"
    new = docsection.replace_block(text, "x", "figures", "## Against mem0 (LoCoMo dev)")
    assert new.index("## Against mem0") < new.index("figures") < new.index("notes")


def _ours(seq_p95: float, conc_p95: float, degraded: int, tps: float) -> dict:
    return {
        "recall": {
            "sequential": {"p50_ms": 10.0, "p95_ms": seq_p95, "degraded": 0},
            "concurrent": {"p95_ms": conc_p95, "degraded": degraded, "clients": 4, "qps": 50.0},
            "recall_at_10": 0.8,
        },
        "ingest": {"turns_per_s": tps, "batch": 100, "turns": 10},
        "floor": {
            "query": {"p50_ms": 5.0, "p95_ms": 6.0},
            "passages": {"texts_per_s": 40.0, "batch": 50},
        },
    }


MEM0 = {
    "k": 10,
    "search": {"p50_ms": 60.0, "p95_ms": 100.0},
    "search_concurrent": {"p95_ms": 200.0, "qps": 30.0},
    "ingest": {"turns_per_s": 15.0},
    "recall": {"overall": {"r@10": 0.5}},
}


def test_verdicts_follow_the_aims_of_issues_29_and_11():
    met = versus.verdicts(_ours(50.0, 80.0, 0, 32.0), MEM0)
    assert {k: v["met"] for k, v in met.items()} == dict.fromkeys(met, True)
    assert met["seq_p95"]["ratio"] == 0.5 and met["conc_p95"]["ratio"] == 0.4
    assert met["ingest_vs_floor"]["ratio"] == 0.8
    met = versus.verdicts(_ours(51.0, 80.0, 1, 29.0), MEM0)
    assert met["seq_p95"]["met"] is False  # 0.51× > 0.5×: mem0 / ours < 2
    assert met["conc_p95"]["met"] is False  # one degraded answer
    assert met["ingest_vs_mem0"]["met"] is False and met["ingest_vs_floor"]["met"] is False
    alone = versus.verdicts(_ours(50.0, 80.0, 0, 32.0), None)
    assert alone["seq_p95"]["met"] is None and alone["ingest_vs_floor"]["met"] is True
    assert "| recall p95, sequential (ms) | 50.0 | 100.0 | 0.50× |" in versus.table(
        _ours(50.0, 80.0, 0, 32.0), MEM0
    )


def test_the_table_reports_cached_questions_and_stages_apart():
    ours = _ours(50.0, 80.0, 0, 32.0)
    ours["recall"]["cached"] = {"p50_ms": 7.0, "p95_ms": 9.0}
    ours["recall"]["sequential"]["stages"] = {
        "embed": {"p50_ms": 6.0, "p95_ms": 10.0},
        "after_embed": {"p50_ms": 4.0, "p95_ms": 7.5},
    }
    table = versus.table(ours, MEM0)
    assert "| cached questions (pass 1 again), p50 / p95 (ms) | 7.0 / 9.0 |" in table
    assert "− model alone (before): 1.0 / 4.0 |" in table  # the model alone: 5.0 / 6.0
    assert "| the service's stages after `embed`, p50 / p95 (ms) | 4.0 / 7.5 |" in table
    assert "| client p95 − the model alone's p95 (before) (ms) | 44.0 |" in table


def test_the_aims_use_the_model_alone_measured_interleaved_when_there_is_one():
    ours = _ours(50.0, 80.0, 0, 32.0)
    seq = ours["recall"]["sequential"]
    seq["stages"] = {"embed": {"p50_ms": 6.0, "p95_ms": 10.0}}
    seq["stages"]["embed_model"] = {"p50_ms": 5.5, "p95_ms": 8.0}
    seq["bare"] = {"p50_ms": 5.5, "p95_ms": 9.0, "model_p50_ms": 5.0, "model_p95_ms": 8.5}
    table = versus.table(ours, MEM0)
    assert "interleaved with the service's requests: one query p50 / p95 (ms) | 5.5 / 9.0" in table
    assert "− model alone (interleaved): 0.5 / 1.0 |" in table
    assert "− the bare model's encode: 0.5 / -0.5 |" in table
    assert "| client p95 − the model alone's p95 (interleaved) (ms) | 41.0 |" in table


def test_the_table_sets_the_floor_of_a_new_question_against_half_of_mem0s_p95():
    ours = _ours(50.0, 80.0, 0, 32.0)
    ours["recall"]["http_floor"] = {
        "health": {"p50_ms": 2.0, "p95_ms": 3.5},
        "empty_subject": {"p50_ms": 30.0, "p95_ms": 60.0},
    }
    table = versus.table(ours, MEM0)
    assert "| HTTP alone: `GET /health`, p50 / p95 (ms) | 2.0 / 3.5 |" in table
    # mem0's p95 is 100 ms: the aim needs ours ≤ 50, and the floor alone is 60 (0.60×)
    assert "the floor, p50 / p95 (ms) | 30.0 / 60.0 | p95 / 2: 50.0 | 0.60× at p95 |" in table
    assert "subject with no units" not in versus.table(_ours(50.0, 80.0, 0, 32.0), MEM0)


def test_the_interleaved_pass_alternates_which_goes_first():
    import bench_locomo

    calls: list[str] = []

    class Bare:
        def embed(self, text: str) -> tuple[float, float]:
            calls.append("bare " + text)
            return 1.0, 0.5

    class Ask:
        tag = "?"

        def __call__(self, q: dict) -> tuple:
            calls.append("service " + q["question"] + self.tag)
            return (q,)

    floor: list[tuple] = []
    qs = [{"question": "a"}, {"question": "b"}, {"question": "c"}]
    res = bench_locomo._ask_interleaved(Ask(), Bare(), qs, floor)  # type: ignore[arg-type]
    assert [r[0]["question"] for r in res] == ["a", "b", "c"] and len(floor) == 3
    assert calls == ["service a?", "bare a?", "bare b?", "service b?", "service c?", "bare c?"]
    calls.clear()
    qs = [{"question": "Where did Caroline go?", "conversation_id": "c1"}]
    bench_locomo._ask_interleaved(Ask(), Bare(), qs, [], {"c1": frozenset({"caroline"})})  # type: ignore[arg-type]
    assert calls == ["service Where did Caroline go??", "bare Where did go??"]  # names stripped
    summary = bench_locomo._floor_summary(floor)
    assert summary["p50_ms"] == 1.0 and summary["model_p95_ms"] == 0.5


def test_every_timed_pass_sends_its_own_text():
    import bench_locomo

    tags = [bench_locomo._tag(n) for n in range(5)]
    assert len(set(tags)) == 5 and tags[0] == ""
    q = {"question": "When did Caroline go?", "conversation_id": "c1"}
    q["asked_after_iso"] = "2023-05-08T13:56:00"
    body = bench_locomo.recall_body(q, "p/", 10, tags[2])
    assert body["query"] == "When did Caroline go???" and body["user_id"] == "p/c1"


def test_the_doc_command_names_no_path_outside_the_repository():
    import bench_locomo

    shown = bench_locomo.shown_command(
        ["--dataset", "/x/shared/datasets/locomo-dev", "--mem0-python", "/tmp/v/bin/python",
         "--mem0-script", "/x/shared/bench/mem0/mem0_locomo.py", "--api-key", "k1",
         "--json", "/tmp/a.json", "--write-doc"]
    )  # fmt: skip
    assert shown == (
        ".venv/bin/python scripts/bench_locomo.py --dataset LOCOMO_DEV "
        "--mem0-python MEM0_VENV/bin/python"
    )


async def test_server_cpu_is_the_services_own_process_cpu(client):
    """scripts/recall_latency.py's CPU per request: the process CPU seconds the service
    reports on /metrics (here the app runs in this process: CPU burnt here counts)."""
    before = await cpu_seconds(client)
    assert before is not None and before > 0
    start = time.process_time()
    while time.process_time() - start < 0.3:
        pass
    after = await cpu_seconds(client)
    assert after is not None and 0.25 <= after - before < 5.0
    assert parse_cpu("# HELP x y\nprocess_cpu_seconds_total_other 3.0\n") is None
    assert parse_cpu("process_cpu_seconds_total 12.5\n") == 12.5
