"""``ptkg build`` when things go wrong around it: killed processes, files left behind, a post
too long for spaCy (issue 10).

The process tests run a real ``ptkg build --jobs 2`` and kill a real process with SIGKILL;
Linux only (they find the workers in ``/proc``). The large inputs are generated here.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ptkg import files
from ptkg.build import build
from ptkg.extractors import pipeline
from ptkg.graph import read_graph
from ptkg.records import Post

linux_only = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")
WORKER_DIED = ("Error: an extraction worker died (killed by signal 9, out of memory?): "
               "the graph was not written; rerun, with fewer --jobs")


def corpus_rows(corpus_dir: Path) -> list[dict]:
    lines = (corpus_dir / "pytorch_blog.jsonl").read_text(encoding="utf8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def write_rows(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf8")
    return path


def start_build(tmp_path: Path, corpus_dir: Path, copies: int = 4) -> subprocess.Popen:
    """``ptkg build --jobs 2`` over the corpus repeated ``copies`` times, in the background.

    Its output goes to files (``out.txt``, ``err.txt``), not pipes: workers that outlive it
    would hold a pipe open, and reading it would wait for them.
    """
    rows = [dict(row, url=f"{row['url']}#copy-{n}") for n in range(copies)
            for row in corpus_rows(corpus_dir)]
    posts = write_rows(tmp_path / "posts.jsonl", rows)
    with (tmp_path / "out.txt").open("w") as out, (tmp_path / "err.txt").open("w") as err:
        return subprocess.Popen(
            [sys.executable, "-m", "ptkg.cli", "build", str(posts), "--graph",
             str(tmp_path / "graph.json"), "--jobs", "2", "--no-cache", "--model", "blank",
             "--no-progress"],
            stdout=out, stderr=err)


def stat(pid: int) -> list[str] | None:
    """The fields of ``/proc/<pid>/stat`` after the command name (state first), or None."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rpartition(")")[2].split()


def running(pid: int) -> bool:
    fields = stat(pid)
    return fields is not None and fields[0] not in ("Z", "X")  # a zombie has exited


def workers_of(pid: int) -> list[int]:
    """The running children of ``pid`` that run its command: its forked workers (not, say,
    multiprocessing's resource tracker)."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    found = []
    for entry in Path("/proc").iterdir():
        fields = stat(int(entry.name)) if entry.name.isdigit() else None
        if fields and int(fields[1]) == pid and running(int(entry.name)):
            with_command = Path(f"/proc/{entry.name}/cmdline")
            try:
                if with_command.read_bytes() == command:
                    found.append(int(entry.name))
            except OSError:
                continue
    return sorted(found)


def wait_for_workers(build_process: subprocess.Popen, count: int = 2,
                     timeout: float = 60) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        workers = workers_of(build_process.pid)
        if len(workers) >= count:
            return workers
        if build_process.poll() is not None:
            break
        time.sleep(0.05)
    build_process.kill()
    build_process.wait()
    pytest.fail(f"no {count} workers appeared: {stderr_of(build_process)[-500:]}")


def stderr_of(build_process: subprocess.Popen) -> str:
    """What a build of :func:`start_build` wrote on stderr."""
    return Path(build_process.args[4]).with_name("err.txt").read_text(encoding="utf8")


def wait_until_gone(pids: list[int], seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(running(pid) for pid in pids):
        time.sleep(0.05)
    return [pid for pid in pids if running(pid)]


def kill_all(pids: list[int]) -> None:
    for pid in pids:  # what a failed test left running: only the processes it started
        if running(pid):
            os.kill(pid, signal.SIGKILL)


# --------------------------------------------------------------------------- processes


@linux_only
def test_issue10_kill_of_build_ends_its_workers(tmp_path, corpus_dir):
    """Issue 10: kill -9 of the main ``ptkg build --jobs 2``: no worker alive 5 s later."""
    build_process = start_build(tmp_path, corpus_dir)
    workers = wait_for_workers(build_process)
    try:
        build_process.kill()
        build_process.wait()
        assert wait_until_gone(workers, 5.0) == []
    finally:
        kill_all(workers)


@linux_only
def test_issue10_kill_of_a_worker_is_one_line(tmp_path, corpus_dir):
    """Issue 10: kill -9 of one worker (the OOM killer's pick): one line, exit 1, the previous
    graph file intact, the other worker ended."""
    graph = tmp_path / "graph.json"
    graph.write_text("the previous graph\n", encoding="utf8")
    build_process = start_build(tmp_path, corpus_dir)
    workers = wait_for_workers(build_process)
    try:
        os.kill(workers[0], signal.SIGKILL)
        build_process.wait(timeout=60)
        assert (build_process.returncode, stderr_of(build_process).splitlines()) == (
            1, [WORKER_DIED])
        assert graph.read_text(encoding="utf8") == "the previous graph\n"
        assert wait_until_gone(workers, 5.0) == []
    finally:
        build_process.kill()
        kill_all(workers)


@linux_only
def test_worker_exits_with_its_parent_without_prctl(tmp_path):
    """The portable way alone (no prctl): the watching thread ends an orphaned worker."""
    code = """if True:
        import os, sys, time
        from ptkg.extractors import pipeline
        ready_r, ready_w = os.pipe()
        child = os.fork()
        if child == 0:
            sys.platform = "elsewhere"  # as on a system without prctl
            pipeline.PARENT_POLL_SECONDS = 0.05
            pipeline._exit_with_parent(os.getppid())
            os.write(ready_w, b"x")
            time.sleep(30)
            os._exit(0)
        os.read(ready_r, 1)
        print(child, flush=True)
        os.kill(os.getpid(), 9)
    """
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    try:
        parent.wait(timeout=30)
        assert parent.returncode == -signal.SIGKILL
        assert wait_until_gone([child], 5.0) == []
    finally:
        parent.stdout.close()
        kill_all([child])


class FakeWorker:
    def __init__(self, exitcode: int | None):
        self.exitcode = exitcode

    def join(self, timeout: float | None = None) -> None:
        pass


def _killed_in_start(*args) -> None:
    os.kill(os.getpid(), signal.SIGKILL)


def _slow_chunks(posts, count):
    """The chunks, the second one late: a worker dies while ``map`` still submits them."""
    chunks = [posts[:1], posts[1:]]
    yield chunks[0]
    time.sleep(2)
    yield chunks[1]


@linux_only
def test_worker_killed_while_chunks_are_submitted_is_named(monkeypatch):
    """A worker killed before ``map`` returns (the pool breaks inside it) still names the signal."""
    monkeypatch.setattr(pipeline, "_init_worker", _killed_in_start)
    monkeypatch.setattr(pipeline, "_chunks", _slow_chunks)
    posts = [Post(url=f"https://example.org/{n}", text="PyTorch 2.1 ships.")
             for n in range(2)]
    with pytest.raises(pipeline.WorkerError) as error:
        list(pipeline.iter_extraction(posts, model="blank", jobs=2))
    assert str(error.value) == "an extraction worker died (killed by signal 9, out of memory?)"


@pytest.mark.parametrize(("codes", "message"), [
    ([-15, -9], "an extraction worker died (killed by signal 9, out of memory?)"),
    ([-11, -15], "an extraction worker died (killed by signal 11)"),
    ([-15, -15], "an extraction worker died (killed by signal 15)"),
    ([0, 3], "an extraction worker died (exit code 3)"),
    ([None, 0], "an extraction worker died"),
])
def test_worker_death_names_the_signal(codes, message):
    assert pipeline._worker_death([FakeWorker(code) for code in codes]) == message


# --------------------------------------------------------------------------- files


def dead_pid() -> int:
    """The id of a process that has exited (and was reaped)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout)


@linux_only
def test_issue10_kill_inside_graph_write_leaves_nothing_after_next_build(tmp_path, corpus_dir):
    """Issue 10: kill -9 inside the graph write leaves a temporary file; the next build
    removes it (and an old one of an earlier version), and keeps a fresh one it cannot judge."""
    graph = tmp_path / "graph.json"
    code = ("import os, sys; from ptkg import files; "
            "os.fsync = lambda fd: os.kill(os.getpid(), 9); "
            "files.write_atomic(sys.argv[1], 'a graph being written')")
    killed = subprocess.run([sys.executable, "-c", code, str(graph)], check=False)
    assert killed.returncode == -signal.SIGKILL
    left = list(tmp_path.glob(".graph.json.*.tmp"))
    assert len(left) == 1 and not graph.exists()
    old = tmp_path / ".graph.json.k2j4x8qa.tmp"  # no writer's id: judged by its age
    old.write_text("", encoding="utf8")
    os.utime(old, (time.time() - 2 * files.STALE_SECONDS,) * 2)
    fresh = tmp_path / ".graph.json.p0q9r8s7.tmp"
    fresh.write_text("", encoding="utf8")
    posts = write_rows(tmp_path / "posts.jsonl", corpus_rows(corpus_dir)[:1])
    build([posts], graph, model="blank", cache=False)
    assert sorted(tmp_path.glob(".graph.json.*.tmp")) == [fresh]
    assert read_graph(graph).number_of_nodes() > 1


def test_remove_stale_temps_keeps_what_a_live_writer_may_own(tmp_path):
    host = files._HOST
    target = tmp_path / "graph.json"
    names = {
        f".graph.json.{dead_pid()}-{host}.abcd1234.tmp": True,  # its writer is gone
        f".graph.json.{os.getpid()}-{host}.abcd1234.tmp": False,  # this process writes it
        f".graph.json.{dead_pid()}-another-host.abcd1234.tmp": False,  # cannot tell: fresh
        ".graph.json.abcd1234.tmp": False,  # an earlier version's, fresh
        f".other.json.{dead_pid()}-{host}.abcd1234.tmp": False,  # another target's
        f".graph.json.old.{dead_pid()}-{host}.abcd1234.tmp": False,  # of graph.json.old
        "graph.json.abcd1234.tmp": False,  # not hidden: not ours
    }
    for name in names:
        (tmp_path / name).write_text("", encoding="utf8")
    removed = files.remove_stale_temps(target)
    assert removed == sorted(tmp_path / name for name, stale in names.items() if stale)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        name for name, stale in names.items() if not stale)


def test_remove_stale_temps_by_age(tmp_path):
    old = tmp_path / f".graph.json.{os.getpid()}-another-host.abcd1234.tmp"
    old.write_text("", encoding="utf8")
    os.utime(old, (time.time() - 10, time.time() - 10))
    assert files.remove_stale_temps(tmp_path / "graph.json", older_than=60) == []
    assert files.remove_stale_temps(tmp_path / "graph.json", older_than=5) == [old]


def test_write_atomic_names_its_temp_file_after_its_writer(tmp_path, monkeypatch):
    seen = []
    replace = os.replace
    monkeypatch.setattr(os, "replace", lambda src, dst: (seen.append(src), replace(src, dst)))
    files.write_atomic(tmp_path / "graph.json", "{}")
    assert Path(seen[0]).name.startswith(f".graph.json.{os.getpid()}-{files._HOST}.")


# --------------------------------------------------------------------------- long posts


def test_issue10_long_post_beside_a_good_one(tmp_path, corpus_dir):
    """Issue 10: a post longer than spaCy's max_length (1,000,000 characters) beside a good
    one: both are read, the long one to its end."""
    rows = corpus_rows(corpus_dir)
    good = next(row for row in rows if row["url"].endswith("/pytorch-1.8-released/"))
    block = "```python\n" + "x = torch.randn(8, 8)  # a step\n" * 300 + "```\n\nStep done.\n\n"
    text = ("PyTorch 1.8 adds support for ROCm.\n\n" + block * (1_100_000 // len(block))
            + "TorchServe is developed by AWS.\n")
    assert len(text) > 1_000_000
    long = dict(good, url="https://example.org/long/", title="A long post", text=text)
    graph = tmp_path / "graph.json"
    summary = build([write_rows(tmp_path / "posts.jsonl", [long, good])], graph, model="blank",
                    cache=False)
    alone = tmp_path / "alone.json"
    build([write_rows(tmp_path / "good.jsonl", [good])], alone, model="blank", cache=False)
    read, good_only = read_graph(graph), read_graph(alone)
    assert summary.posts == 2 and summary.skipped == []
    assert {data["url"] for _, data in read.nodes(data=True) if data["label"] == "Post"} == {
        "https://example.org/long/", good["url"]}
    good_edges = {(u, v, k) for u, v, k, d in good_only.edges(keys=True, data=True)
                  if good["url"] in d.get("sources", []) or u == f"Post:{good['url']}"}
    assert len(good_edges) > 50
    assert good_edges <= set(read.edges(keys=True))
    developed = [d for _, _, k, d in read.edges(keys=True, data=True) if k == "DEVELOPED_BY"
                 and "https://example.org/long/" in d["sources"]]
    assert [d["evidence"] for d in developed] == [["TorchServe is developed by AWS."]]
    start, end = developed[0]["offsets"][0]
    assert text[start:end] == "TorchServe is developed by AWS."
