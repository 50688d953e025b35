"""A worker that dies natively (a CP-SAT abort) breaks the process pool: the runner runs the
tasks it took down again, each alone, so only the task that kills its worker fails."""

from __future__ import annotations

import pytest

from chargeopt.solver.bench import runner
from chargeopt.solver.bench.runner import Task


def test_tasks_lost_to_a_broken_pool_run_again_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    tasks = [Task(f"/x/{i}.toml", f"{i}.toml", "chargeopt", 0, 1.0, 0) for i in range(3)]
    calls: list[tuple[list[int], int, bool]] = []

    def fake_pool(tasks, indices, workers, results, progress, *, retry):
        calls.append((list(indices), workers, retry))
        if retry:
            results[0] = {"file": "0.toml", "status": "optimal"}
            return [1, 2]
        i = indices[0]
        results[i] = runner.lost(tasks[i], RuntimeError("died")) if i == 1 else {"file": "2.toml"}
        return []

    monkeypatch.setattr(runner, "_run_pool", fake_pool)
    out = runner.run_local(tasks, 2, lambda _: None)
    assert calls == [([0, 1, 2], 2, True), ([1], 1, False), ([2], 1, False)]
    assert [o["file"] for o in out] == ["0.toml", "1.toml", "2.toml"]
    assert out[1]["failure"] and out[1]["error"] == "worker lost: RuntimeError: died"
