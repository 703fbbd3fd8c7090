"""A campaign stopped from outside keeps every finished point (issue #52): kollective run on
stop_resume/sweep.yaml, sent SIGTERM once the sweep has three points in the results database
(twice at once, as a scheduler and mpirun both signal: one stop), exits 143 with those points in its tables and the command that goes on; --resume finishes it
with the answers of an uninterrupted run. SIGKILL at another instant leaves a database that
passes PRAGMA integrity_check, and --resume finishes that too; `kollective compare` matches its
points with the uninterrupted run's (and a run of the sweep in another order) and --fail-above
fails on a slower one. A resume is refused where the
config changed an answer-changing key or left one out (naming the run and the key), where another
revision solved the points, or where the folder holds no database; --force-resume goes on, solving such a run again. compare's gate fails where B lacks
points of A, and a missing folder is a usage error (2). This repository's recorded OpenMP and CUDA databases
(perf/results/backends/h200) still read back and compare.

    python3 check_stop_resume.py KOLLECTIVE WORK_DIR
    python3 check_stop_resume.py KOLLECTIVE WORK_DIR --mpiexec MPIEXEC   (3 ranks, one killed)

With --mpiexec: under 3 ranks, one rank other than 0 is killed (SIGKILL) once the sweep has three
points stored in any rank's file; every point a rank had finished is kept (a fresh run of
another config in the folder meanwhile keeps them too, and the killed run is one session), and
--resume (on 3 ranks) finishes the campaign with the answers of an uninterrupted 3-rank run.
"""

import csv
from contextlib import closing
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CONFIG = os.path.join(HERE, "stop_resume", "sweep.yaml")
ANSWERS = ("agents", "optimum", "structure", "exact")
failures = []


def expect(condition, what):
    if not condition:
        failures.append(what)
        print("FAILED:", what)


def run(kollective, out, *extra, config=CONFIG):
    return subprocess.run([kollective, "run", config, "--out", out, "--quiet", *extra], capture_output=True,
                          text=True, env=dict(os.environ, OMP_PROC_BIND="false"), timeout=300)


def stored_points(out, run_name="sweep"):
    try:  # read-only: a plain connect would make an empty file before kollective makes the database
        with closing(sqlite3.connect(f"file:{os.path.join(out, 'results.sqlite')}?mode=ro", uri=True, timeout=10)) as db:
            return db.execute("SELECT count(*) FROM points WHERE run = ?", (run_name,)).fetchone()[0]
    except sqlite3.Error:  # not made yet, or made but its tables not yet
        return 0


def stop_when(kollective, out, points, sig, again_after=None):
    """Starts a run and sends `sig` once the sweep has `points` stored (0: after `points` s), and
    again `again_after` seconds later where given (a scheduler's signal, then mpirun's own)."""
    process = subprocess.Popen([kollective, "run", CONFIG, "--out", out, "--quiet"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, env=dict(os.environ, OMP_PROC_BIND="false"))
    deadline = time.time() + 120
    while process.poll() is None and time.time() < deadline and stored_points(out) < points:
        time.sleep(0.05)
    process.send_signal(sig)
    if again_after is not None:
        time.sleep(again_after)
        process.send_signal(sig)
    stdout, stderr = process.communicate(timeout=300)
    return process.returncode, stderr


def stored_anywhere(out, run_name="sweep"):
    """The points of `run_name` in rank 0's database and the other ranks' own files."""
    total = 0
    for name in os.listdir(out) if os.path.isdir(out) else []:
        if name.startswith("results") and name.endswith(".sqlite"):
            try:
                with closing(sqlite3.connect(f"file:{os.path.join(out, name)}?mode=ro", uri=True, timeout=10)) as db:
                    total += db.execute("SELECT count(*) FROM points WHERE run = ?", (run_name,)).fetchone()[0]
            except sqlite3.Error:
                pass
    return total


def rank_pid(launcher, rank):
    """The process of `rank` below mpiexec's (Open MPI sets OMPI_COMM_WORLD_RANK)."""
    for pid in os.listdir("/proc"):
        try:
            with open(f"/proc/{pid}/environ", "rb") as handle:
                variables = handle.read().split(b"\0")
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                command = handle.read()
        except OSError:
            continue
        if f"OMPI_COMM_WORLD_RANK={rank}".encode() in variables and b"kollective" in command and \
                f"--out\0{launcher}".encode() in command:
            return int(pid)
    return None


def check_ranks(kollective, work, mpiexec):
    """Three ranks, one killed: its finished points and the others' survive; --resume ends it."""
    launch = [mpiexec, "-np", "3", "--oversubscribe"]
    environment = dict(os.environ, OMP_PROC_BIND="false", OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1",
                       OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")

    def run_ranks(out, *extra):
        return subprocess.run([*launch, kollective, "run", CONFIG, "--out", out, "--quiet", *extra],
                              capture_output=True, text=True, env=environment, timeout=300)

    full, killed = os.path.join(work, "ranks_full"), os.path.join(work, "ranks_killed")
    expect(run_ranks(full).returncode == 0, "the uninterrupted 3-rank run")
    expected = {name: answers(full, name) for name in ("quick", "sweep", "after")}
    process = subprocess.Popen([*launch, kollective, "run", CONFIG, "--out", killed, "--quiet"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
    deadline = time.time() + 120
    while process.poll() is None and time.time() < deadline and stored_anywhere(killed) < 3:
        time.sleep(0.05)
    stored = stored_anywhere(killed)
    victim = rank_pid(killed, 1) or rank_pid(killed, 2)
    expect(victim is not None, "a rank other than 0 to kill")
    if victim:
        os.kill(victim, signal.SIGKILL)
    process.communicate(timeout=300)
    expect(stored_anywhere(killed) >= stored, f"the {stored} points stored before the kill are kept")
    kept = stored_anywhere(killed)
    other_config = os.path.join(work, "other.yaml")  # a fresh campaign of another config in the folder
    with open(other_config, "w") as other:
        other.write("runs:\n  - name: other\n    algorithm: schulze\n"
                    "    input: {generator: {model: impartial_culture, alternatives: 5, voters: 9}}\n")
    expect(run(kollective, killed, config=other_config).returncode == 0, "another config's run in the folder")
    expect(stored_anywhere(killed) == kept, f"another config's fresh run keeps the {kept} points of the ranks' files")
    with closing(sqlite3.connect(os.path.join(killed, "results.sqlite"))) as db:
        statuses = [row[0] for row in db.execute("SELECT status FROM sessions ORDER BY id")]
    expect(statuses == ["interrupted", "completed"], f"the killed 3-rank run is one session: {statuses}")
    resumed = run_ranks(killed, "--resume")
    expect(resumed.returncode == 0, f"--resume on 3 ranks after a rank was killed: {resumed.stderr}")
    for name, rows in expected.items():
        expect(answers(killed, name) == rows, f"after a killed rank and --resume, {name}'s answers")
    left = [name for name in os.listdir(killed) if name.startswith("results.rank")]
    expect(not left, f"the ranks' own files are taken in: {left}")
    expect(point_files(killed) == point_files(full), f"after a killed rank and --resume, the sweep's files: "
           f"{point_files(killed)}")


def point_files(out):
    """The sweep's per-point files in the output folder."""
    return sorted(name for name in os.listdir(out) if name.startswith("sweep_n") and name.endswith(".kcsg"))


def answers(out, name):
    with open(os.path.join(out, name + ".csv"), newline="") as handle:
        return [tuple(row[c] for c in ANSWERS) for row in csv.DictReader(handle)]


def main(kollective, work, mpiexec=None):
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if mpiexec:
        check_ranks(kollective, work, mpiexec)
        print("stop and resume on 3 ranks:", "FAILED" if failures else "every check passed")
        return 1 if failures else 0
    full, stopped, killed = (os.path.join(work, name) for name in ("full", "stopped", "killed"))
    expect(run(kollective, full).returncode == 0, "the uninterrupted run")
    expected = {name: answers(full, name) for name in ("quick", "sweep", "after")}

    status, stderr = stop_when(kollective, stopped, 3, signal.SIGTERM, again_after=0.0)  # within 3 s: one stop
    expect(status == 143, f"SIGTERM exits 143, not {status}: {stderr}")
    expect(f"kollective run {CONFIG} --out {stopped} --resume" in stderr, f"the stop names the resume command: {stderr}")
    kept = answers(stopped, "sweep") if os.path.exists(os.path.join(stopped, "sweep.csv")) else []
    expect(len(kept) >= 3 and kept == expected["sweep"][:len(kept)], f"the sweep's finished points in its table: {kept}")
    expect(answers(stopped, "quick") == expected["quick"], "the completed run's table")
    expect(not os.path.exists(os.path.join(stopped, "after.csv")), "no table for the run not started")
    expect(point_files(stopped) == point_files(full)[:len(kept)], f"the finished points' files: {point_files(stopped)}")
    resumed = run(kollective, stopped, "--resume")
    expect(resumed.returncode == 0, f"--resume: {resumed.stderr}")
    for name, rows in expected.items():
        expect(answers(stopped, name) == rows, f"after --resume, {name}'s answers equal an uninterrupted run's")
    with closing(sqlite3.connect(os.path.join(stopped, "results.sqlite"))) as db:
        statuses = [status for (status,) in db.execute("SELECT status FROM sessions ORDER BY id")]
    expect(statuses == ["stopped", "completed"], f"the sessions: {statuses}")

    status, _ = stop_when(kollective, killed, 2, signal.SIGKILL)
    expect(status == -signal.SIGKILL, f"SIGKILL: {status}")
    with closing(sqlite3.connect(os.path.join(killed, "results.sqlite"))) as db:  # closed: WAL files go at the end
        expect(db.execute("PRAGMA integrity_check").fetchone()[0] == "ok", "the killed run's database is intact")
    expect(stored_points(killed) >= 2, "the killed run's finished points are stored")
    pending = os.path.join(killed, "results.pending", "sweep")
    kept = sorted(os.listdir(pending)) if os.path.isdir(pending) else []
    expect(len(kept) >= stored_points(killed) and not point_files(killed),
           f"the killed run's finished points keep their files, pending: {kept}")
    with open(os.path.join(killed, ".sweep_n15_values.kcsg.partial-elsewhere-7"), "w") as stale:
        stale.write("a point's file, its writer killed")  # as SIGKILL while writing leaves one
    resumed = run(kollective, killed, "--resume")
    expect(resumed.returncode == 0, f"--resume after SIGKILL: {resumed.stderr}")
    for name, rows in expected.items():
        expect(answers(killed, name) == rows, f"after SIGKILL and --resume, {name}'s answers")
    expect(sorted(os.listdir(killed)) == sorted(os.listdir(full)), f"after SIGKILL and --resume, the files: "
           f"{sorted(os.listdir(killed))}, uninterrupted {sorted(os.listdir(full))}")
    with closing(sqlite3.connect(os.path.join(killed, "results.sqlite"))) as db:
        statuses = [status for (status,) in db.execute("SELECT status FROM sessions ORDER BY id")]
        timing = db.execute("SELECT kind, unit FROM columns WHERE name = 'solve_s'").fetchone()
    expect(statuses == ["interrupted", "completed"], f"the killed session is marked interrupted: {statuses}")
    expect(timing == ("timing", "s"), f"the database describes its columns: solve_s {timing}")

    restated = os.path.join(work, "restated.yaml")  # the same answers: a former key name, a default written out
    with open(CONFIG) as source, open(restated, "w") as target:
        target.write(source.read().replace("options: {method: idp}", "options: {method: idp, values: double}")
                     .replace("{model: uniform, agents: 12, seed: 1}", "{model: uniform, agents: 12.0, seed: 1}"))
    again = run(kollective, stopped, "--resume", config=restated)
    expect(again.returncode == 0, f"--resume takes a renamed key, a default and a number written otherwise: "
           f"{again.stderr}")
    changed = os.path.join(work, "changed.yaml")
    with open(CONFIG) as source, open(changed, "w") as target:
        target.write(source.read().replace("options: {method: idp}", "options: {method: dp}"))
    refused = run(kollective, stopped, "--resume", config=changed)
    expect(refused.returncode != 0 and "resuming run 'sweep': 'options.method' is 'dp' here, 'idp'" in refused.stderr,
           f"a changed answer-changing key is refused by name: {refused.stderr}")
    forced = run(kollective, stopped, "--force-resume", config=changed)
    expect(forced.returncode == 0 and "its 8 stored points are solved again" in forced.stderr,
           f"--force-resume goes on, solving the changed run again: {forced.stderr}")
    with open(os.path.join(stopped, "sweep.csv"), newline="") as handle:
        methods = [row["method"] for row in csv.DictReader(handle)]
    expect(methods == ["dp"] * 8, f"--force-resume mixes no stored point into the changed run: {methods}")
    unseeded = os.path.join(work, "unseeded.yaml")  # a key given when the points were solved, absent now
    with open(CONFIG) as source, open(unseeded, "w") as target:
        target.write(source.read().replace("{model: uniform, agents: 12, seed: 1}", "{model: uniform, agents: 12}"))
    refused = run(kollective, killed, "--resume", config=unseeded)
    expect(refused.returncode != 0 and "'input.generator.seed' is absent here, '1'" in refused.stderr,
           f"a key left out since the points were solved is refused by name: {refused.stderr}")
    elsewhere = os.path.join(work, "elsewhere")  # points another revision solved
    shutil.copytree(killed, elsewhere)
    with closing(sqlite3.connect(os.path.join(elsewhere, "results.sqlite"))) as db, db:
        db.execute("UPDATE sessions SET revision = 'other'")
    refused = run(kollective, elsewhere, "--resume")
    expect(refused.returncode != 0 and "its points were solved by revision other" in refused.stderr,
           f"points of another revision are not resumed: {refused.stderr}")
    expect(run(kollective, elsewhere, "--force-resume").returncode == 0, "--force-resume goes on across revisions")
    table = os.path.join(work, "compare.csv")
    compared = subprocess.run([kollective, "compare", full, killed, "--csv", table], capture_output=True, text=True)
    expect(compared.returncode == 0 and "10 points matched; only in A: 0; only in B: 0" in compared.stdout
           and "DIFFER" not in compared.stdout, f"compare: every point matched, answers agree: {compared.stdout}")
    left = [name for folder in (full, killed) for name in os.listdir(folder) if name.endswith(("-wal", "-shm"))]
    expect(not left, f"compare leaves the databases as it found them: {left}")
    with open(table, newline="") as handle:
        ratios = [row for row in csv.DictReader(handle) if row["column"] == "solve_s"]
    expect(len(ratios) == 10 and all(float(r["ratio"]) > 0 for r in ratios), "compare's CSV: a solve_s ratio a point")
    slowed = subprocess.run([kollective, "compare", full, killed, "--fail-above", "0.001"], capture_output=True,
                            text=True)
    expect(slowed.returncode == 1 and "slower (above 0.001)" in slowed.stderr, "--fail-above names the slower points")
    reordered_config = os.path.join(work, "reordered.yaml")  # the sweep's points in another order
    with open(CONFIG) as source, open(reordered_config, "w") as target:
        target.write(source.read().replace("[12, 13, 14, 15, 16, 17, 18, 19]", "[19, 18, 17, 16, 15, 14, 13, 12]"))
    reordered = os.path.join(work, "reordered")
    expect(run(kollective, reordered, config=reordered_config).returncode == 0, "the reordered sweep")
    matched = subprocess.run([kollective, "compare", full, reordered], capture_output=True, text=True)
    expect(matched.returncode == 0 and "10 points matched; only in A: 0; only in B: 0" in matched.stdout,
           f"compare matches points by their parameters, not their order: {matched.stdout}")
    record = os.path.join(HERE, "..", "..", "perf", "results", "backends", "h200")  # this repository's own record
    recorded = subprocess.run([kollective, "compare", os.path.join(record, "openmp"), os.path.join(record, "cuda")],
                              capture_output=True, text=True)
    expect(recorded.returncode == 0 and "9 points matched; only in A: 0; only in B: 0" in recorded.stdout
           and "DIFFER" not in recorded.stdout, f"the recorded OpenMP and CUDA databases compare: {recorded.stdout}")
    locked = os.path.join(work, "locked")  # one run at a time writes a folder
    first = subprocess.Popen([kollective, "run", CONFIG, "--out", locked, "--quiet"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, env=dict(os.environ, OMP_PROC_BIND="false"))
    deadline = time.time() + 120
    while first.poll() is None and time.time() < deadline and stored_points(locked) < 1:
        time.sleep(0.05)
    second = run(kollective, locked)
    first.kill()
    first.communicate(timeout=300)
    expect(second.returncode == 1 and "another `kollective run` is writing" in second.stderr,
           f"a second run on a folder being written is refused: {second.stderr}")
    blocked = os.path.join(work, "blocked")  # where a finished point's files would wait, a file
    os.makedirs(blocked)
    with open(os.path.join(blocked, "results.pending"), "w") as stray:
        stray.write("not a folder")
    refused = run(kollective, blocked)
    expect(refused.returncode == 1 and "results.pending' is not a folder" in refused.stderr,
           f"a results.pending that is a file is named: {refused.stderr}")
    partial = os.path.join(work, "partial")  # a campaign that lacks points fails a gate
    shutil.copytree(full, partial)
    with closing(sqlite3.connect(os.path.join(partial, "results.sqlite"))) as db, db:
        db.execute("DELETE FROM points WHERE run = 'sweep' AND point > 2")
    gated = subprocess.run([kollective, "compare", full, partial, "--fail-above", "1000"], capture_output=True,
                           text=True)
    expect(gated.returncode == 1 and "5 points of A are not in B" in gated.stderr,
           f"--fail-above fails where B lacks points of A: {gated.returncode} {gated.stderr}")
    missing = subprocess.run([kollective, "compare", full, os.path.join(work, "nowhere")], capture_output=True,
                             text=True)
    expect(missing.returncode == 2 and "does not exist" in missing.stderr, f"compare, a folder missing: {missing}")
    empty = run(kollective, os.path.join(work, "nothing"), "--resume")
    expect(empty.returncode != 0 and "nothing to resume" in empty.stderr, f"no database to resume: {empty.stderr}")
    print("stop and resume:", "FAILED" if failures else "every check passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[4] if len(sys.argv) > 4 and sys.argv[3] == "--mpiexec" else None))
